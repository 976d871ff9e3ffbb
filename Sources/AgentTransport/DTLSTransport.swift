import CAgentShims
import COpenSSL

/// A DTLS 1.2 endpoint (RFC 6347) for DTLS-SRTP (RFC 5764), as a socket-free state machine.
///
/// The owner feeds it datagrams the demuxer classified as DTLS (first byte 20–63, RFC 7983) and
/// sends whatever datagrams come back; it also asks ``retransmissionTimeout`` and calls
/// ``handleTimeout()`` when that much time has passed. Nothing here blocks, reads a clock of its
/// own for decisions, or touches the network, so two endpoints handshake in a unit test by passing
/// arrays back and forth.
///
/// OpenSSL is driven over two BIOs: a memory BIO for input (one `BIO_write` per datagram) and a
/// small custom BIO for output, because OpenSSL's memory BIO is a byte stream and would glue
/// datagrams together. Each `BIO_write` reaching the custom BIO is exactly one datagram: during
/// the handshake OpenSSL puts a buffering BIO in front of ours, packs several records into it and
/// flushes it before the next record would overflow the MTU. That buffer holds 4096 octets, which
/// is why larger MTUs are refused.
///
/// Certificates are self-signed on both sides. The verify callback accepts any chain, but only
/// after the leaf certificate's digest equals the fingerprint the peer's SDP announced
/// (RFC 5763 §5, RFC 8122 §5); otherwise the handshake aborts with `bad_certificate` and a
/// ``DTLSError/fingerprintMismatch(expected:actual:)`` event.
///
/// Not thread-safe and not Sendable: a PeerConnection owns it on its event loop. OpenSSL 3
/// initialises itself on first use behind its own once-guard, so there is no process-wide init
/// to call here; its error queue is per thread and is cleared before every call we diagnose.
public final class DTLSTransport {
    public enum State: Sendable, Equatable {
        /// Created; the client has not sent its ClientHello yet.
        case idle
        case handshaking
        case connected
        case failed(DTLSError)
        case closed
    }

    /// The DTLS record MTU we fit every datagram into: conservative enough for any path with
    /// IPv6 and TURN overhead (the value libwebrtc uses too).
    public static let defaultMTU = 1200

    /// The exporter label for DTLS-SRTP keys (RFC 5764 §4.2).
    static let srtpExporterLabel = "EXTRACTOR-dtls_srtp"

    public let role: DTLSRole
    public let mtu: Int
    public let expectedRemoteFingerprint: DTLSFingerprint
    public private(set) var state: State = .idle

    /// `SSL_CTX *`, owned.
    private let context: OpaquePointer
    /// `SSL *`, owned; owns both BIOs.
    private let ssl: OpaquePointer
    /// `BIO *` memory BIO the SSL reads datagrams from; owned by `ssl`.
    private let incoming: OpaquePointer
    /// State the C callbacks reach through `SSL_get_ex_data` and `BIO_get_data`. The transport
    /// holds it strongly and frees `ssl` before it, so the unretained pointers never dangle.
    private let callbacks: DTLSCallbackState
    private var readBuffer = [UInt8](repeating: 0, count: 16_384 + 2_048)

    /// - Parameters:
    ///   - role: client or server, from the SDP `a=setup` negotiation.
    ///   - certificate: our certificate; its fingerprint is what our SDP announced.
    ///   - remoteFingerprint: the peer's `a=fingerprint`.
    ///   - srtpProfiles: the DTLS-SRTP profiles to offer or accept, most preferred first.
    ///   - mtu: the largest datagram we may emit.
    ///   - initialRetransmissionTimeout: the first handshake retransmission timer; it doubles on
    ///     each expiry up to 60 s (RFC 6347 §4.2.4.1 recommends 1 s).
    public init(
        role: DTLSRole,
        certificate: DTLSCertificate,
        remoteFingerprint: DTLSFingerprint,
        srtpProfiles: [SRTPProfile] = [.aes128CmHmacSha1_80],
        mtu: Int = DTLSTransport.defaultMTU,
        initialRetransmissionTimeout: Duration = .seconds(1)
    ) throws(DTLSError) {
        guard (256...4096).contains(mtu) else {
            throw .setupFailed(reason: "MTU \(mtu) outside 256...4096")
        }
        self.role = role
        self.mtu = mtu
        self.expectedRemoteFingerprint = remoteFingerprint
        let timeoutMicroseconds = initialRetransmissionTimeout.components.seconds * 1_000_000
            + initialRetransmissionTimeout.components.attoseconds / 1_000_000_000_000
        callbacks = DTLSCallbackState(
            expected: remoteFingerprint,
            initialTimeoutMicroseconds: UInt32(clamping: max(1_000, timeoutMicroseconds)))

        ERR_clear_error()
        guard !srtpProfiles.isEmpty else { throw .setupFailed(reason: "no SRTP profile to offer") }
        guard let context = SSL_CTX_new(DTLS_method()) else {
            throw .setupFailed(reason: "SSL_CTX_new: " + DTLSError.drainOpenSSLErrors())
        }
        do throws(DTLSError) {
            try Self.configure(context, certificate: certificate, srtpProfiles: srtpProfiles)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .setupFailed(reason: "SSL_new: " + DTLSError.drainOpenSSLErrors())
        }
        guard let incoming = BIO_new(BIO_s_mem()),
            let outgoing = BIO_new(DatagramOutputBIO.shared.method)
        else {
            SSL_free(ssl)
            SSL_CTX_free(context)
            throw .setupFailed(reason: "BIO_new: " + DTLSError.drainOpenSSLErrors())
        }
        // An empty input BIO means "no datagram yet", not end of stream.
        agent_bio_set_mem_eof_return(incoming, -1)
        BIO_set_data(outgoing, Unmanaged.passUnretained(callbacks).toOpaque())
        SSL_set_bio(ssl, incoming, outgoing)
        SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(callbacks).toOpaque())
        DTLS_set_timer_cb(ssl, dtlsTimerCallback)
        switch role {
        case .client: SSL_set_connect_state(ssl)
        case .server: SSL_set_accept_state(ssl)
        }
        guard agent_dtls_set_link_mtu(ssl, mtu) != 0 else {
            SSL_free(ssl)
            SSL_CTX_free(context)
            throw .setupFailed(reason: "DTLS_set_link_mtu(\(mtu)) refused")
        }
        self.context = context
        self.ssl = ssl
        self.incoming = incoming
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    private static func configure(_ context: OpaquePointer, certificate: DTLSCertificate, srtpProfiles: [SRTPProfile])
        throws(DTLSError)
    {
        guard agent_ssl_ctx_set_min_proto_version(context, DTLS1_2_VERSION) == 1 else {
            throw .setupFailed(reason: "min version DTLS 1.2: " + DTLSError.drainOpenSSLErrors())
        }
        // We give the MTU ourselves; there is no socket to ask.
        _ = agent_ssl_ctx_set_options(context, agent_ssl_op_no_query_mtu())
        guard SSL_CTX_use_certificate(context, certificate.certificate) == 1,
            SSL_CTX_use_PrivateKey(context, certificate.privateKey) == 1,
            SSL_CTX_check_private_key(context) == 1
        else {
            throw .setupFailed(reason: "loading the certificate: " + DTLSError.drainOpenSSLErrors())
        }
        // Unlike nearly every other OpenSSL call, this one returns 0 on success.
        let profiles = srtpProfiles.map(\.openSSLName).joined(separator: ":")
        guard SSL_CTX_set_tlsext_use_srtp(context, profiles) == 0 else {
            throw .setupFailed(reason: "use_srtp \(profiles): " + DTLSError.drainOpenSSLErrors())
        }
        // Both sides must show a certificate (RFC 5763 §5), so the server asks for one too.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, dtlsVerifyCallback)
    }

    // MARK: - Driving

    /// Starts the handshake. The client returns its ClientHello; the server returns nothing and
    /// waits. Calling it again does nothing.
    public func start() -> DTLSOutput {
        guard state == .idle else { return DTLSOutput() }
        state = .handshaking
        return drive()
    }

    /// Feeds one datagram received from the peer.
    public func receive(_ datagram: [UInt8]) -> DTLSOutput {
        switch state {
        case .failed, .closed: return DTLSOutput()
        case .idle: state = .handshaking  // a server may see the ClientHello before start()
        case .handshaking, .connected: break
        }
        guard !datagram.isEmpty else { return DTLSOutput() }
        let written = datagram.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
        guard written == datagram.count else {
            var output = DTLSOutput()
            fail(.protocolError(reason: "input BIO refused a datagram"), into: &output)
            output.datagrams = callbacks.takeOutgoing()
            return output
        }
        return drive()
    }

    /// How long until ``handleTimeout()`` should run, while a handshake flight awaits an answer;
    /// nil when no retransmission timer is running.
    public var retransmissionTimeout: Duration? {
        guard state == .handshaking else { return nil }
        var seconds = 0
        var microseconds = 0
        guard agent_dtls_get_timeout(ssl, &seconds, &microseconds) == 1 else { return nil }
        return .seconds(seconds) + .microseconds(microseconds)
    }

    /// Retransmits the last flight if its timer expired (RFC 6347 §4.2.4). Gives up with a
    /// failure event after OpenSSL's retry limit.
    public func handleTimeout() -> DTLSOutput {
        var output = DTLSOutput()
        guard state == .handshaking else { return output }
        ERR_clear_error()
        if agent_dtls_handle_timeout(ssl) < 0 {
            fail(.handshakeFailed(reason: "retransmission limit: " + DTLSError.drainOpenSSLErrors()), into: &output)
        }
        output.datagrams = callbacks.takeOutgoing()
        return output
    }

    /// The largest application data record that still fits the MTU with the negotiated cipher;
    /// 0 before the handshake finishes.
    public var maximumApplicationDataSize: Int {
        guard state == .connected else { return 0 }
        return Int(DTLS_get_data_mtu(ssl))
    }

    /// Encrypts one application data record and returns the datagram(s) to send.
    public func send(_ data: [UInt8]) throws(DTLSError) -> [[UInt8]] {
        guard state == .connected else { throw .notConnected }
        guard !data.isEmpty else { return [] }
        let maximum = maximumApplicationDataSize
        guard data.count <= maximum else { throw .applicationDataTooLarge(maximum: maximum, got: data.count) }
        ERR_clear_error()
        let written = data.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == data.count else {
            let error = DTLSError.protocolError(reason: "SSL_write: " + DTLSError.drainOpenSSLErrors())
            var discarded = DTLSOutput()
            fail(error, into: &discarded)
            throw error
        }
        return callbacks.takeOutgoing()
    }

    /// Sends close_notify if connected and stops. Idempotent; a failed transport stays failed.
    public func close() -> DTLSOutput {
        var output = DTLSOutput()
        switch state {
        case .closed, .failed: return output
        case .connected:
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            ERR_clear_error()
        case .idle, .handshaking: break
        }
        state = .closed
        output.datagrams = callbacks.takeOutgoing()
        return output
    }

    // MARK: - Plumbing

    private func drive() -> DTLSOutput {
        var output = DTLSOutput()
        ERR_clear_error()
        if state == .handshaking {
            let result = SSL_do_handshake(ssl)
            if result == 1 {
                completeHandshake(into: &output)
            } else {
                let reason = SSL_get_error(ssl, result)
                if reason != SSL_ERROR_WANT_READ && reason != SSL_ERROR_WANT_WRITE {
                    fail(handshakeError(), into: &output)
                }
            }
        }
        if state == .connected {
            readApplicationData(into: &output)
        }
        output.datagrams = callbacks.takeOutgoing()
        return output
    }

    private func handshakeError() -> DTLSError {
        if let actual = callbacks.mismatchedFingerprint {
            _ = DTLSError.drainOpenSSLErrors()
            return .fingerprintMismatch(expected: expectedRemoteFingerprint, actual: actual)
        }
        return .handshakeFailed(reason: DTLSError.drainOpenSSLErrors())
    }

    private func completeHandshake(into output: inout DTLSOutput) {
        // The verify callback already checked the digest; checking the certificate the session
        // ended up with as well costs one hash and guards against a callback that never ran.
        guard let peer = SSL_get1_peer_certificate(ssl) else {
            fail(.missingPeerCertificate, into: &output)
            return
        }
        let actual = DTLSCertificate.fingerprint(of: peer, algorithm: expectedRemoteFingerprint.algorithm)
        X509_free(peer)
        guard let actual else {
            fail(.handshakeFailed(reason: "peer certificate digest: " + DTLSError.drainOpenSSLErrors()), into: &output)
            return
        }
        guard actual == expectedRemoteFingerprint else {
            fail(.fingerprintMismatch(expected: expectedRemoteFingerprint, actual: actual), into: &output)
            return
        }
        let profileID = agent_ssl_selected_srtp_profile_id(ssl)
        guard profileID != 0 else {
            fail(.noSRTPProfileNegotiated, into: &output)
            return
        }
        guard let profile = SRTPProfile(dtlsProfileID: profileID) else {
            fail(.unsupportedSRTPProfile(id: profileID), into: &output)
            return
        }
        var material = [UInt8](repeating: 0, count: profile.keyingMaterialLength)
        let label = Self.srtpExporterLabel
        let exported = SSL_export_keying_material(ssl, &material, material.count, label, label.utf8.count, nil, 0, 0)
        guard exported == 1 else {
            fail(.keyExportFailed(DTLSError.drainOpenSSLErrors()), into: &output)
            return
        }
        state = .connected
        output.events.append(
            .handshakeCompleted(
                DTLSHandshakeResult(profile: profile, keyingMaterial: material, remoteFingerprint: actual)))
    }

    private func readApplicationData(into output: inout DTLSOutput) {
        while state == .connected {
            let count = readBuffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                output.events.append(.applicationData(Array(readBuffer[0..<Int(count)])))
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return
            case SSL_ERROR_ZERO_RETURN:
                state = .closed
                output.events.append(.closedByPeer)
                return
            default:
                fail(.protocolError(reason: DTLSError.drainOpenSSLErrors()), into: &output)
                return
            }
        }
    }

    private func fail(_ error: DTLSError, into output: inout DTLSOutput) {
        state = .failed(error)
        output.events.append(.failed(error))
    }
}

/// What the C callbacks of one transport read and write. Reached through unretained pointers
/// stored in the SSL's ex_data slot 0 and in the output BIO's data; the owning transport keeps it
/// alive for longer than the SSL that holds those pointers. Touched only on the transport's
/// thread, because OpenSSL calls these callbacks synchronously from inside our own SSL calls.
final class DTLSCallbackState {
    let expected: DTLSFingerprint
    let initialTimeoutMicroseconds: UInt32
    /// Datagrams the record layer wrote since the last `takeOutgoing`.
    private var outgoing: [[UInt8]] = []
    /// Set when the peer's certificate digest did not match `expected`.
    var mismatchedFingerprint: DTLSFingerprint?

    init(expected: DTLSFingerprint, initialTimeoutMicroseconds: UInt32) {
        self.expected = expected
        self.initialTimeoutMicroseconds = initialTimeoutMicroseconds
    }

    func append(datagram: UnsafeRawBufferPointer) {
        outgoing.append(Array(datagram))
    }

    func takeOutgoing() -> [[UInt8]] {
        defer { outgoing.removeAll() }
        return outgoing
    }

    /// Accepts the leaf certificate only when its digest is the one SDP announced.
    func verifyLeaf(_ certificate: OpaquePointer) -> Bool {
        guard let actual = DTLSCertificate.fingerprint(of: certificate, algorithm: expected.algorithm) else {
            return false
        }
        if actual == expected { return true }
        mismatchedFingerprint = actual
        return false
    }
}

/// `SSL_verify_cb`. OpenSSL would reject a self-signed certificate (there is no trust anchor);
/// WebRTC trusts by fingerprint instead, so only the leaf's digest decides (RFC 5763 §5).
private func dtlsVerifyCallback(_ preverified: Int32, _ store: OpaquePointer?) -> Int32 {
    guard let store,
        let sslPointer = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
        let statePointer = SSL_get_ex_data(OpaquePointer(sslPointer), 0)
    else { return 0 }
    // Certificates above the leaf (none in WebRTC) do not matter: the leaf must match anyway.
    guard X509_STORE_CTX_get_error_depth(store) == 0 else { return 1 }
    guard let leaf = X509_STORE_CTX_get_current_cert(store) else { return 0 }
    let state = Unmanaged<DTLSCallbackState>.fromOpaque(statePointer).takeUnretainedValue()
    if state.verifyLeaf(leaf) {
        X509_STORE_CTX_set_error(store, X509_V_OK)
        return 1
    }
    X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
    return 0
}

/// `DTLS_timer_cb`: the first retransmission timeout, then doubling up to 60 s (RFC 6347 §4.2.4.1).
private func dtlsTimerCallback(_ ssl: OpaquePointer?, _ previousMicroseconds: UInt32) -> UInt32 {
    guard let ssl, let statePointer = SSL_get_ex_data(ssl, 0) else { return 1_000_000 }
    let state = Unmanaged<DTLSCallbackState>.fromOpaque(statePointer).takeUnretainedValue()
    if previousMicroseconds == 0 { return state.initialTimeoutMicroseconds }
    return min(previousMicroseconds.multipliedReportingOverflow(by: 2).partialValue, 60_000_000)
}

/// The process-wide output BIO method: each `BIO_write` from the DTLS record layer is one
/// datagram, handed to the transport's ``DTLSCallbackState``. Made once, because BIO type indexes
/// are a small finite pool (`BIO_get_new_index`).
struct DatagramOutputBIO: @unchecked Sendable {
    // @unchecked Sendable: `method` is created once during the global's thread-safe lazy
    // initialisation and only read afterwards; OpenSSL reads BIO_METHODs without locking.
    let method: OpaquePointer?

    static let shared = DatagramOutputBIO()

    private init() {
        let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "agentd DTLS datagram output")
        if let method {
            _ = BIO_meth_set_create(method) { bio in
                BIO_set_init(bio, 1)
                return 1
            }
            _ = BIO_meth_set_write(method) { bio, data, length in
                guard let bio, let data, length >= 0, let statePointer = BIO_get_data(bio) else { return -1 }
                let state = Unmanaged<DTLSCallbackState>.fromOpaque(statePointer).takeUnretainedValue()
                state.append(datagram: UnsafeRawBufferPointer(start: data, count: Int(length)))
                return length
            }
            _ = BIO_meth_set_ctrl(method) { _, command, _, _ in
                switch command {
                // The record layer flushes after each flight; nothing is buffered here.
                case BIO_CTRL_FLUSH: 1
                // Everything else (MTU queries, peer addresses, timeouts) has no socket behind it.
                default: 0
                }
            }
        }
        self.method = method
    }
}
