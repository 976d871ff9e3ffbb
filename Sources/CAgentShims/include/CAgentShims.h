// Static inline wrappers for C macros and variadic functions that Swift cannot call directly.
// One header per library area, so each wrapper's shims live next to each other.
#ifndef C_AGENT_SHIMS_H
#define C_AGENT_SHIMS_H

#include "agent_glib_shims.h"

#endif
