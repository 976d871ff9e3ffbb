import CSRTP

/// Why an SRTP operation failed. The libsrtp cases name the `srtp_err_status_t` they come from so
/// a log line says "replay" instead of "9".
public enum SRTPError: Error, Equatable, Sendable {
    /// The master key does not have the profile's length.
    case invalidKeyLength(expected: Int, got: Int)
    /// The master salt does not have the profile's length.
    case invalidSaltLength(expected: Int, got: Int)
    /// The DTLS exported keying material does not have the profile's length (RFC 5764 §4.2).
    case invalidKeyingMaterialLength(expected: Int, got: Int)
    /// The packet is shorter than the smallest header libsrtp accepts (12 octets RTP, 8 RTCP).
    case packetTooShort(minimum: Int, got: Int)
    /// protect was called on an inbound context or unprotect on an outbound one.
    case wrongDirection
    /// The context was closed.
    case closed
    /// `srtp_err_status_auth_fail`: the authentication tag did not verify (tampered, wrong key).
    case authenticationFailed
    /// `srtp_err_status_replay_fail`: this packet index was already seen.
    case replayed
    /// `srtp_err_status_replay_old`: the index is older than the replay window.
    case replayTooOld
    /// `srtp_err_status_bad_param`: libsrtp refused a parameter or a malformed header.
    case badParameter
    /// `srtp_err_status_cipher_fail`: the cipher failed (for GCM: the tag did not verify).
    case cipherFailed
    /// `srtp_err_status_key_expired`: the key reached its packet limit (RFC 3711 §9.2).
    case keyExpired
    /// `srtp_err_status_init_fail`: `srtp_init` failed, so no context can be made.
    case libraryInitFailed
    /// Any other `srtp_err_status_t`, by number and libsrtp's name for it.
    case library(status: UInt32, name: String)

    /// Maps a non-ok libsrtp status to its case.
    init(status: srtp_err_status_t) {
        switch status {
        case srtp_err_status_auth_fail: self = .authenticationFailed
        case srtp_err_status_replay_fail: self = .replayed
        case srtp_err_status_replay_old: self = .replayTooOld
        case srtp_err_status_bad_param: self = .badParameter
        case srtp_err_status_cipher_fail: self = .cipherFailed
        case srtp_err_status_key_expired: self = .keyExpired
        case srtp_err_status_init_fail: self = .libraryInitFailed
        default: self = .library(status: status.rawValue, name: Self.name(of: status))
        }
    }

    private static func name(of status: srtp_err_status_t) -> String {
        switch status {
        case srtp_err_status_fail: "fail"
        case srtp_err_status_alloc_fail: "alloc_fail"
        case srtp_err_status_dealloc_fail: "dealloc_fail"
        case srtp_err_status_terminus: "terminus"
        case srtp_err_status_algo_fail: "algo_fail"
        case srtp_err_status_no_such_op: "no_such_op"
        case srtp_err_status_no_ctx: "no_ctx"
        case srtp_err_status_cant_check: "cant_check"
        case srtp_err_status_parse_err: "parse_err"
        case srtp_err_status_bad_mki: "bad_mki"
        case srtp_err_status_pkt_idx_old: "pkt_idx_old"
        case srtp_err_status_pkt_idx_adv: "pkt_idx_adv"
        default: "status \(status.rawValue)"
        }
    }
}
