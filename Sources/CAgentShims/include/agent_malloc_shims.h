// glibc allocator tuning: mallopt and M_ARENA_MAX come from <malloc.h>, which Swift's Glibc
// module does not export. Only Sources/Agent/Transport/MallocArenas.swift uses this.
#ifndef AGENT_MALLOC_SHIMS_H
#define AGENT_MALLOC_SHIMS_H

#include <malloc.h>

/// mallopt(M_ARENA_MAX, count): 1 on success, 0 when glibc refuses.
static inline int agent_malloc_limit_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

#endif
