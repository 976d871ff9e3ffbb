import CSRTP
import Synchronization

/// `srtp_init` runs once per process, the first time any context is made. Swift initialises a
/// global `let` exactly once behind a lock, which is what makes this safe when tests create
/// contexts from many threads at once. libsrtp is never shut down: contexts may live until exit.
private let srtpLibraryInitStatus: UInt32 = srtp_init().rawValue

/// One direction of SRTP for one DTLS-SRTP association: a libsrtp session holding a wildcard
/// stream (`ssrc_any_outbound` or `ssrc_any_inbound`), so every SSRC of the PeerConnection shares
/// the master key, as DTLS-SRTP requires (RFC 5764 §4.1).
///
/// Packets are transformed in place. SRTP appends a trailer (RFC 3711 §3.1, §3.4):
///
///     SRTP:   | RTP header | encrypted payload | auth tag (10, 4 or 16) |
///     SRTCP:  | RTCP header (8) | encrypted rest | E + SRTCP index (4) | auth tag |
///
/// so `protect` grows the buffer by ``SRTPProfile/rtpOverhead`` or ``SRTPProfile/rtcpOverhead``
/// and `unprotect` shrinks it. Callers that keep one `[UInt8]` with enough reserved capacity and
/// reuse it for every packet cause no heap allocation per packet.
///
/// Thread safety: a libsrtp session is not thread-safe (it updates replay windows and rollover
/// counters), so the session pointer lives in a `Mutex`. It is uncontended in practice because
/// one thread sends and one receives, each with its own context.
public final class SRTPContext: Sendable {
    /// Which way the packets go: protect on outbound, unprotect on inbound. libsrtp's wildcard
    /// streams cannot serve both (see `srtp_policy_t` in srtp.h), and keeping the two apart stops
    /// the sender and receiver from sharing a replay window.
    public enum Direction: Sendable, Equatable {
        case outbound
        case inbound
    }

    /// The replay window in packets. RFC 3711 §3.3.2 asks for at least 64; video bursts and
    /// retransmissions reorder far more, so we follow libwebrtc's 1024.
    public static let replayWindowSize = 1024

    public let profile: SRTPProfile
    public let direction: Direction
    private let session: Mutex<SessionHandle>

    /// The `srtp_t`, or nil once closed.
    private struct SessionHandle: @unchecked Sendable {
        // @unchecked Sendable: the pointer is only ever read or used inside `session.withLock`,
        // so libsrtp sees one thread at a time.
        var pointer: OpaquePointer?
    }

    /// Creates a context from a master key and salt of the profile's lengths.
    public init(profile: SRTPProfile, direction: Direction, masterKey: [UInt8], masterSalt: [UInt8])
        throws(SRTPError)
    {
        guard masterKey.count == profile.masterKeyLength else {
            throw .invalidKeyLength(expected: profile.masterKeyLength, got: masterKey.count)
        }
        guard masterSalt.count == profile.masterSaltLength else {
            throw .invalidSaltLength(expected: profile.masterSaltLength, got: masterSalt.count)
        }
        guard srtpLibraryInitStatus == srtp_err_status_ok.rawValue else { throw .libraryInitFailed }

        var policy = srtp_policy_t()
        switch profile {
        case .aes128CmHmacSha1_80:
            srtp_crypto_policy_set_rtp_default(&policy.rtp)
            srtp_crypto_policy_set_rtcp_default(&policy.rtcp)
        case .aes128CmHmacSha1_32:
            srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32(&policy.rtp)
            srtp_crypto_policy_set_rtcp_default(&policy.rtcp)
        case .aeadAes128Gcm:
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtp)
            srtp_crypto_policy_set_aes_gcm_128_16_auth(&policy.rtcp)
        }
        policy.ssrc.type = direction == .outbound ? ssrc_any_outbound : ssrc_any_inbound
        policy.ssrc.value = 0
        policy.window_size = UInt(Self.replayWindowSize)
        // A NACK retransmission resends the identical packet with the same sequence number;
        // libsrtp would refuse it as a replay on the sending side without this flag.
        policy.allow_repeat_tx = direction == .outbound ? 1 : 0
        policy.next = nil

        // libsrtp reads key || salt from one buffer and copies it into the session.
        var keyAndSalt = masterKey + masterSalt
        var created: OpaquePointer?
        let status = keyAndSalt.withUnsafeMutableBufferPointer { buffer in
            policy.key = buffer.baseAddress
            defer { policy.key = nil }
            return srtp_create(&created, &policy)
        }
        for index in keyAndSalt.indices { keyAndSalt[index] = 0 }
        guard status == srtp_err_status_ok, let created else {
            throw SRTPError(status: status)
        }
        self.profile = profile
        self.direction = direction
        self.session = Mutex(SessionHandle(pointer: created))
    }

    deinit {
        close()
    }

    /// Frees the libsrtp session. Later calls throw ``SRTPError/closed``. Idempotent.
    public func close() {
        session.withLock { session in
            if let existing = session.pointer {
                _ = srtp_dealloc(existing)
                session.pointer = nil
            }
        }
    }

    // MARK: - Array API

    /// Encrypts and authenticates an RTP packet in place, appending the tag.
    public func protectRTP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(&packet, minimum: 12, room: profile.rtpOverhead, expected: .outbound, srtp_protect)
    }

    /// Verifies and decrypts an SRTP packet in place, removing the tag. On error the bytes are
    /// unspecified (GCM decrypts before it can tell) but the count is restored.
    public func unprotectRTP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(&packet, minimum: 12, room: 0, expected: .inbound, srtp_unprotect)
    }

    /// Encrypts and authenticates an RTCP compound packet in place, appending index and tag.
    public func protectRTCP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(
            &packet, minimum: 8, room: profile.rtcpOverhead, expected: .outbound, srtp_protect_rtcp)
    }

    /// Verifies and decrypts an SRTCP packet in place, removing index and tag.
    public func unprotectRTCP(_ packet: inout [UInt8]) throws(SRTPError) {
        try transform(&packet, minimum: 8, room: 0, expected: .inbound, srtp_unprotect_rtcp)
    }

    // MARK: - Raw buffer API

    /// Protects the RTP packet in the first `length` octets of `buffer`, which must have room
    /// for ``SRTPProfile/rtpOverhead`` more. Returns the SRTP length.
    public func protectRTP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try transform(buffer, length: length, minimum: 12, room: profile.rtpOverhead, expected: .outbound, srtp_protect)
    }

    /// Unprotects the SRTP packet in the first `length` octets of `buffer`. Returns the RTP length.
    public func unprotectRTP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try transform(buffer, length: length, minimum: 12, room: 0, expected: .inbound, srtp_unprotect)
    }

    /// Protects the RTCP packet in the first `length` octets of `buffer`, which must have room
    /// for ``SRTPProfile/rtcpOverhead`` more. Returns the SRTCP length.
    public func protectRTCP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try transform(buffer, length: length, minimum: 8, room: profile.rtcpOverhead, expected: .outbound, srtp_protect_rtcp)
    }

    /// Unprotects the SRTCP packet in the first `length` octets of `buffer`. Returns the RTCP length.
    public func unprotectRTCP(in buffer: UnsafeMutableRawBufferPointer, length: Int) throws(SRTPError) -> Int {
        try transform(buffer, length: length, minimum: 8, room: 0, expected: .inbound, srtp_unprotect_rtcp)
    }

    // MARK: - Plumbing

    private typealias Operation = (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?) -> srtp_err_status_t

    private func transform(
        _ packet: inout [UInt8], minimum: Int, room: Int, expected: Direction, _ operation: Operation
    ) throws(SRTPError) {
        let originalCount = packet.count
        // Growing within reserved capacity does not allocate; neither does shrinking.
        if room > 0 { packet.append(contentsOf: repeatElement(0, count: room)) }
        let result = packet.withUnsafeMutableBytes { buffer in
            Result { () throws(SRTPError) -> Int in
                try transform(buffer, length: originalCount, minimum: minimum, room: room, expected: expected, operation)
            }
        }
        switch result {
        case .success(let length):
            packet.removeLast(packet.count - length)
        case .failure(let error):
            packet.removeLast(packet.count - originalCount)
            throw error
        }
    }

    private func transform(
        _ buffer: UnsafeMutableRawBufferPointer, length: Int, minimum: Int, room: Int,
        expected: Direction, _ operation: Operation
    ) throws(SRTPError) -> Int {
        guard direction == expected else { throw .wrongDirection }
        guard length >= minimum else { throw .packetTooShort(minimum: minimum, got: length) }
        guard let base = buffer.baseAddress, length + room <= buffer.count, length <= Int(Int32.max) else {
            throw .badParameter
        }
        return try session.withLock { session throws(SRTPError) -> Int in
            guard let pointer = session.pointer else { throw .closed }
            var inOutLength = Int32(length)
            let status = operation(pointer, base, &inOutLength)
            guard status == srtp_err_status_ok else { throw SRTPError(status: status) }
            return Int(inOutLength)
        }
    }
}
