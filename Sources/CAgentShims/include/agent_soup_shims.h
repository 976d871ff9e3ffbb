// libsoup shims.
#ifndef AGENT_SOUP_SHIMS_H
#define AGENT_SOUP_SHIMS_H

#endif
