// Counts heap allocations for agentd-bench: this target defines malloc, calloc and realloc,
// which take precedence over glibc's in the executable that links it (and only there), count
// each call and pass it to glibc's own entry points (__libc_malloc and kin). Aligned
// allocations (posix_memalign, aligned_alloc) are not counted: Swift asks for them only for
// alignments above 16. Never link this into agentd itself.
#ifndef AGENT_ALLOC_COUNTER_H
#define AGENT_ALLOC_COUNTER_H

#include <stdint.h>

/// Allocations (malloc, calloc, and realloc of a new block) since the process began.
uint64_t agent_alloc_count(void);

#endif
