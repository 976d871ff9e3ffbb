// OpenSSL shims: SSL_CTX_* and DTLS_* macros.
#ifndef AGENT_SSL_SHIMS_H
#define AGENT_SSL_SHIMS_H

#endif
