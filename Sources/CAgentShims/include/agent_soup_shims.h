// libsoup shims: soup_server_new is variadic (NULL-terminated property list).
#ifndef AGENT_SOUP_SHIMS_H
#define AGENT_SOUP_SHIMS_H

#include <libsoup/soup.h>

/// A SoupServer with default properties. Swift cannot call the NULL-terminated variadic
/// soup_server_new directly.
static inline SoupServer *agent_soup_server_new(void) {
    return soup_server_new(NULL, NULL);
}

#endif
