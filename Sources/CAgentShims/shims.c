// The shims are all static inline in include/; this file exists because a C target needs a source.
#include "CAgentShims.h"
