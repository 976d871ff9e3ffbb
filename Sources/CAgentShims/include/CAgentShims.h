// Static inline wrappers for C macros and variadic functions that Swift cannot call directly.
// One header per library area, each owned by the wrapper that uses it.
#ifndef C_AGENT_SHIMS_H
#define C_AGENT_SHIMS_H

#include "agent_glib_shims.h"
#include "agent_codec_shims.h"
#include "agent_ssl_shims.h"
#include "agent_sctp_shims.h"
#include "agent_soup_shims.h"
#include "agent_malloc_shims.h"

#endif
