import CAgentShims
import COpenSSL

/// The self-signed certificate and private key this endpoint presents in DTLS handshakes.
///
/// WebRTC does not use certificate authorities: each side makes a throwaway self-signed
/// certificate and announces its digest in SDP (`a=fingerprint`, RFC 8122 §5). The peer accepts
/// any certificate whose digest matches (RFC 5763 §5). We use ECDSA on P-256, which every browser
/// accepts and which is far cheaper to make than RSA (RFC 8827 §6.5).
///
/// One certificate may serve every PeerConnection of a process: OpenSSL only reads it (and
/// up-references it) when a context loads it.
public final class DTLSCertificate: @unchecked Sendable {
    // @unchecked Sendable: `privateKey` and `certificate` are written once in init and never
    // mutated afterwards; OpenSSL allows concurrent read-only use of EVP_PKEY and X509 (their
    // reference counts are atomic). deinit frees them once, when the last owner is gone.

    /// `EVP_PKEY *`, owned.
    let privateKey: OpaquePointer
    /// `X509 *`, owned.
    let certificate: OpaquePointer
    /// The SHA-256 fingerprint to put in our SDP.
    public let fingerprint: DTLSFingerprint

    /// Makes a fresh P-256 key and a self-signed certificate for it, valid from a day ago (to
    /// absorb clock skew) for `lifetimeDays`.
    public init(commonName: String = "agentd", lifetimeDays: Int = 30) throws(DTLSError) {
        ERR_clear_error()
        guard let key = agent_ssl_generate_p256_key() else {
            throw .certificateFailed(reason: "P-256 key generation: " + DTLSError.drainOpenSSLErrors())
        }
        guard let x509 = X509_new() else {
            EVP_PKEY_free(key)
            throw .certificateFailed(reason: "X509_new: " + DTLSError.drainOpenSSLErrors())
        }
        do throws(DTLSError) {
            try Self.fill(x509, key: key, commonName: commonName, lifetimeDays: lifetimeDays)
            guard let fingerprint = Self.fingerprint(of: x509, algorithm: .sha256) else {
                throw .certificateFailed(reason: "X509_digest: " + DTLSError.drainOpenSSLErrors())
            }
            self.privateKey = key
            self.certificate = x509
            self.fingerprint = fingerprint
        } catch {
            X509_free(x509)
            EVP_PKEY_free(key)
            throw error
        }
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(privateKey)
    }

    /// The digest of a certificate with `algorithm`, as SDP announces it. nil when OpenSSL fails.
    static func fingerprint(of x509: OpaquePointer, algorithm: DTLSFingerprint.Algorithm) -> DTLSFingerprint? {
        let md: OpaquePointer? =
            switch algorithm {
            case .sha1: EVP_sha1()
            case .sha224: EVP_sha224()
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            case .sha512: EVP_sha512()
            }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(x509, md, &digest, &length) == 1 else { return nil }
        return try? DTLSFingerprint(algorithm: algorithm, digest: Array(digest.prefix(Int(length))))
    }

    private static func fill(_ x509: OpaquePointer, key: OpaquePointer, commonName: String, lifetimeDays: Int)
        throws(DTLSError)
    {
        // A random positive 63-bit serial: RFC 5280 §4.1.2.2 wants it unique per issuer, and
        // every certificate here is its own issuer.
        var serialBytes = [UInt8](repeating: 0, count: 8)
        guard RAND_bytes(&serialBytes, Int32(serialBytes.count)) == 1 else {
            throw .certificateFailed(reason: "RAND_bytes: " + DTLSError.drainOpenSSLErrors())
        }
        let serial = serialBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x7FFF_FFFF_FFFF_FFFF
        let secondsPerDay = 86_400
        let name = X509_get_subject_name(x509)
        let ok =
            X509_set_version(x509, 2) == 1  // v3
            && ASN1_INTEGER_set(X509_get_serialNumber(x509), Int(serial)) == 1
            && X509_gmtime_adj(X509_getm_notBefore(x509), -secondsPerDay) != nil
            && X509_gmtime_adj(X509_getm_notAfter(x509), max(1, lifetimeDays) * secondsPerDay) != nil
            && X509_set_pubkey(x509, key) == 1
            && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1
            && X509_set_issuer_name(x509, name) == 1
            && X509_sign(x509, key, EVP_sha256()) > 0
        guard ok else {
            throw .certificateFailed(reason: "self-signing: " + DTLSError.drainOpenSSLErrors())
        }
    }
}
