// OpenSSL shims: SSL_CTX_* and DTLS_* macros, and the variadic EC key generator.
// Used only by Sources/Agent/Transport/DTLSTransport.swift and DTLSCertificate.swift.
#ifndef AGENT_SSL_SHIMS_H
#define AGENT_SSL_SHIMS_H

#include <string.h>
#include <sys/time.h>
#include <openssl/ssl.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/x509.h>

/// EVP_EC_gen is a macro over the variadic EVP_PKEY_Q_keygen. Returns a new P-256 key or NULL.
static inline EVP_PKEY *agent_ssl_generate_p256_key(void) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

/// SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl. Returns 1 on success.
static inline int agent_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

/// SSL_CTX_set_max_proto_version is a macro over SSL_CTX_ctrl. Returns 1 on success.
static inline int agent_ssl_ctx_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

/// SSL_CTX_set_options: a function in OpenSSL 3 but a macro in older releases; kept here so the
/// Swift side does not care which.
static inline uint64_t agent_ssl_ctx_set_options(SSL_CTX *ctx, uint64_t options) {
    return (uint64_t)SSL_CTX_set_options(ctx, options);
}

/// SSL_OP_NO_QUERY_MTU is a macro built from SSL_OP_BIT, which Swift does not import.
static inline uint64_t agent_ssl_op_no_query_mtu(void) {
    return (uint64_t)SSL_OP_NO_QUERY_MTU;
}

/// DTLS_set_link_mtu is a macro over SSL_ctrl. Returns nonzero on success, 0 when the MTU is below
/// OpenSSL's minimum link MTU (256).
static inline long agent_dtls_set_link_mtu(SSL *ssl, long mtu) {
    return DTLS_set_link_mtu(ssl, mtu);
}

/// DTLSv1_get_timeout is a macro over SSL_ctrl. Returns 1 and fills the remaining time when a
/// retransmission timer is running, 0 when none is.
static inline int agent_dtls_get_timeout(SSL *ssl, long *seconds, long *microseconds) {
    struct timeval remaining = {0, 0};
    long running = DTLSv1_get_timeout(ssl, &remaining);
    *seconds = (long)remaining.tv_sec;
    *microseconds = (long)remaining.tv_usec;
    return running > 0 ? 1 : 0;
}

/// DTLSv1_handle_timeout is a macro over SSL_ctrl. Returns 1 when it retransmitted, 0 when the
/// timer had not expired, -1 on error.
static inline int agent_dtls_handle_timeout(SSL *ssl) {
    return (int)DTLSv1_handle_timeout(ssl);
}

/// BIO_set_mem_eof_return is a macro over BIO_ctrl. With -1 an empty memory BIO reports "retry"
/// instead of end of file, which is what a datagram input queue means.
static inline void agent_bio_set_mem_eof_return(BIO *bio, int value) {
    (void)BIO_set_mem_eof_return(bio, value);
}

/// The selected DTLS-SRTP protection profile id (RFC 5764 §4.1.2), or 0 when none was negotiated.
static inline unsigned long agent_ssl_selected_srtp_profile_id(SSL *ssl) {
    SRTP_PROTECTION_PROFILE *profile = SSL_get_selected_srtp_profile(ssl);
    return profile != NULL ? profile->id : 0;
}

#endif
