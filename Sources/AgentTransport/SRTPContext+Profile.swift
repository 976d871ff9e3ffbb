/// An SRTP protection profile: the cipher, the tag lengths and the key and salt sizes that go
/// together, as negotiated by the DTLS `use_srtp` extension (RFC 5764 §4.1.2, RFC 7714 §14.2).
///
/// Only the profiles a WebRTC peer actually offers are listed. Browsers and Janus always offer
/// `SRTP_AES128_CM_SHA1_80`, which RFC 8827 §6.5 makes mandatory to implement.
public enum SRTPProfile: Sendable, Equatable, Hashable, CaseIterable {
    /// AES-128 counter mode with an 80-bit HMAC-SHA1 tag on RTP and RTCP (RFC 3711 §5).
    case aes128CmHmacSha1_80
    /// AES-128 counter mode with a 32-bit HMAC-SHA1 tag on RTP; RTCP keeps the 80-bit tag
    /// (RFC 5764 §4.1.2: "SRTCP ... uses the 80-bit authentication tag").
    case aes128CmHmacSha1_32
    /// AES-128 in Galois/Counter Mode with a 16-octet tag (RFC 7714 §14.2).
    case aeadAes128Gcm

    /// The master key length in octets.
    public var masterKeyLength: Int { 16 }

    /// The master salt length in octets: 112 bits for AES-CM (RFC 3711 §8.2), 96 bits for GCM
    /// (RFC 7714 §12).
    public var masterSaltLength: Int {
        switch self {
        case .aes128CmHmacSha1_80, .aes128CmHmacSha1_32: 14
        case .aeadAes128Gcm: 12
        }
    }

    /// Octets of DTLS exported keying material this profile needs: both keys then both salts
    /// (RFC 5764 §4.2).
    public var keyingMaterialLength: Int { 2 * (masterKeyLength + masterSaltLength) }

    /// Octets `protectRTP` appends to a packet (the authentication tag).
    public var rtpOverhead: Int {
        switch self {
        case .aes128CmHmacSha1_80: 10
        case .aes128CmHmacSha1_32: 4
        case .aeadAes128Gcm: 16
        }
    }

    /// Octets `protectRTCP` appends: the 32-bit E flag + SRTCP index, then the tag
    /// (RFC 3711 §3.4).
    public var rtcpOverhead: Int {
        switch self {
        case .aes128CmHmacSha1_80, .aes128CmHmacSha1_32: 4 + 10
        case .aeadAes128Gcm: 4 + 16
        }
    }

    /// The DTLS-SRTP protection profile identifier (RFC 5764 §4.1.2, RFC 7714 §14.2).
    public var dtlsProfileID: UInt {
        switch self {
        case .aes128CmHmacSha1_80: 0x0001
        case .aes128CmHmacSha1_32: 0x0002
        case .aeadAes128Gcm: 0x0007
        }
    }

    /// The name OpenSSL's `SSL_CTX_set_tlsext_use_srtp` expects.
    public var openSSLName: String {
        switch self {
        case .aes128CmHmacSha1_80: "SRTP_AES128_CM_SHA1_80"
        case .aes128CmHmacSha1_32: "SRTP_AES128_CM_SHA1_32"
        case .aeadAes128Gcm: "SRTP_AEAD_AES_128_GCM"
        }
    }

    /// The profile for a negotiated DTLS-SRTP identifier, or nil for one we do not implement.
    public init?(dtlsProfileID: UInt) {
        guard let profile = Self.allCases.first(where: { $0.dtlsProfileID == dtlsProfileID }) else {
            return nil
        }
        self = profile
    }
}
