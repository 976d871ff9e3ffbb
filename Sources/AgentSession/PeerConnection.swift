import AgentCore
import AgentTransport
import AgentWire
import Foundation

/// One WebRTC transport: ICE (libnice) carrying DTLS, SRTP/SRTCP and SCTP data channels, all
/// bundled on one 5-tuple with RTCP multiplexed (RFC 8843, RFC 5761).
///
/// Everything here runs on `loop`: the ICE agent's callbacks, the DTLS state machine, the SRTP
/// contexts and the SCTP association. Public entry points hop onto the loop themselves, so
/// callers on other threads never touch transport state directly.
///
///     ICE datagram ─▶ PacketDemuxer ─┬─ DTLS ─▶ DTLSTransport ─┬─ handshake ─▶ SRTP keys, SCTP start
///                                    │                         └─ app data ─▶ SCTP ─▶ data channels
///                                    ├─ RTP  ─▶ SRTP unprotect ─▶ handlers.onRTP
///                                    └─ RTCP ─▶ SRTCP unprotect ─▶ handlers.onRTCP
public final class PeerConnection: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is touched only on `loop`; entry points either
    // assert `loop.assertInLoop()` or hop with `loop.execute`.

    public enum State: Equatable, Sendable {
        case new, connecting, connected, failed(String), closed
    }

    /// Callbacks, all invoked on the loop.
    public struct Handlers {
        public var onState: (State) -> Void
        /// A decrypted RTP packet; the bytes are valid only during the call.
        public var onRTP: (RTPHeader, UnsafeRawBufferPointer) -> Void
        public var onRTCP: ([RTCPPacket]) -> Void
        public var onDataChannel: (DataChannelRegistry.Event) -> Void
        /// The SCTP association under the data channels died (the peer stopped answering for
        /// longer than SCTP retransmits): no data moves on this PeerConnection any more, though
        /// media may. Not called when we close it.
        public var onDataTransportLost: () -> Void
        /// ICE selected a candidate pair (at the first connect, again after an ICE restart).
        public var onSelectedPair: (ICESelectedPair) -> Void

        public init(
            onState: @escaping (State) -> Void = { _ in },
            onRTP: @escaping (RTPHeader, UnsafeRawBufferPointer) -> Void = { _, _ in },
            onRTCP: @escaping ([RTCPPacket]) -> Void = { _ in },
            onDataChannel: @escaping (DataChannelRegistry.Event) -> Void = { _ in },
            onDataTransportLost: @escaping () -> Void = {},
            onSelectedPair: @escaping (ICESelectedPair) -> Void = { _ in }
        ) {
            self.onState = onState
            self.onRTP = onRTP
            self.onRTCP = onRTCP
            self.onDataChannel = onDataChannel
            self.onDataTransportLost = onDataTransportLost
            self.onSelectedPair = onSelectedPair
        }
    }

    /// Datagrams by fate, for stats and for "malformed input is counted, never fatal".
    public struct Counters: Equatable, Sendable {
        public var datagramsIn = 0
        public var rtpIn = 0
        public var rtcpIn = 0
        public var dtlsIn = 0
        public var unknownIn = 0
        public var srtpErrors = 0
        public var rtpParseErrors = 0
        public var rtcpParseErrors = 0
        public var rtpOut = 0
        public var rtcpOut = 0
        public var bytesIn = 0
        public var bytesOut = 0
    }

    public let loop: EventLoop
    /// Where ICE gathers, its STUN and TURN servers and its policy.
    public let iceConfiguration: ICEConfiguration
    /// The TURN servers' username and password; only ever handed to the ICE agent.
    let iceServerCredentials: ICEServerCredentials?
    public var localAddresses: [String] { iceConfiguration.addresses }
    public let certificate: DTLSCertificate
    public internal(set) var state: State = .new
    /// The candidate pair ICE selected last: the path the media takes (through a TURN relay when
    /// its local end is `relay`). nil until ICE has selected one.
    public internal(set) var selectedPair: ICESelectedPair?
    public internal(set) var counters = Counters()
    /// The stream id of the data channel we opened, once open was sent.
    public internal(set) var dataChannelStreamID: UInt16?

    var handlers: Handlers
    var ice: ICEAgent?
    var dtls: DTLSTransport?
    var dtlsRole: DTLSRole = .client
    var srtpIn: SRTPContext?
    var srtpOut: SRTPContext?
    var sctp: SCTPAssociation?
    var dataChannels: DataChannelRegistry?
    var dataChannelLabel: String?
    /// The label asked for in ``answer(offer:dataChannelLabel:)``, kept for a later offer that
    /// adds a data section.
    var requestedDataChannelLabel: String?
    var pendingNegotiation: PendingNegotiation?
    /// What our first answer (or offer) announced; later answers (renegotiation) repeat it.
    var localParameters: LocalTransportParameters?
    /// True when we made the offer (publishing); the answer then decides the DTLS role.
    var isOfferer = false
    /// The peer's current `a=ice-ufrag`: an offer with another one restarts ICE.
    var remoteICEUfrag: String?
    /// True while the connection failed because ICE did (not DTLS): an ICE restart can recover it.
    var iceFailed = false
    /// ICE restarts answered so far.
    public internal(set) var iceRestarts = 0
    /// RFC 7675 consent freshness: a path that stops answering fails ICE within about 30 s.
    let iceConsentFreshness: Bool
    var timer: LoopTimer?
    /// Reused for every SRTP unprotect on the receive path.
    var packetBuffer = [UInt8](repeating: 0, count: 2048)

    /// Work waiting for ICE gathering to finish before an SDP can be written.
    struct PendingNegotiation {
        let complete: (LocalTransportParameters) -> Void
        let fail: (PeerConnectionError) -> Void
    }

    /// - Parameters:
    ///   - ice: where ICE gathers (IPv4 addresses from ``ICEAllowList/resolve()``), its STUN and
    ///     TURN servers and its policy (``ICETransportPolicy/relay``: relayed candidates only).
    ///   - iceServerCredentials: the TURN servers' username and password.
    ///   - certificate: our DTLS certificate; a new one per connection when nil.
    ///   - iceConsentFreshness: check the path with RFC 7675 consent requests, so a peer that
    ///     vanishes makes the connection fail (and ``State/failed(_:)`` be reported) instead of
    ///     going quiet for ever.
    public init(loop: EventLoop, ice: ICEConfiguration, iceServerCredentials: ICEServerCredentials? = nil,
                certificate: DTLSCertificate? = nil, handlers: Handlers = Handlers(), iceConsentFreshness: Bool = false)
        throws(PeerConnectionError)
    {
        self.loop = loop
        iceConfiguration = ice
        self.iceServerCredentials = iceServerCredentials
        self.iceConsentFreshness = iceConsentFreshness
        if let certificate {
            self.certificate = certificate
        } else {
            do {
                self.certificate = try DTLSCertificate()
            } catch {
                throw .dtls(error)
            }
        }
        self.handlers = handlers
    }

    /// A connection whose ICE gathers host candidates on `localAddresses` only, with no servers.
    public convenience init(loop: EventLoop, localAddresses: [String], certificate: DTLSCertificate? = nil,
                            handlers: Handlers = Handlers(), iceConsentFreshness: Bool = false)
        throws(PeerConnectionError)
    {
        try self.init(
            loop: loop, ice: ICEConfiguration(addresses: localAddresses), certificate: certificate, handlers: handlers,
            iceConsentFreshness: iceConsentFreshness)
    }

    // MARK: Answering an offer (Janus subscriptions)

    /// Answers `offer` as a receive-only endpoint and starts connecting. Gathers ICE candidates
    /// first, so the answer carries them all (no trickle needed).
    ///
    /// - Parameter dataChannelLabel: when the offer has a data section, we open a channel with
    ///   this label once SCTP is up; Janus relays data to subscribers only after they open one.
    public func answer(offer: SessionDescription, dataChannelLabel: String?) async throws(PeerConnectionError)
        -> (answer: SessionDescription, streams: [NegotiatedStream])
    {
        let result: Result<(SessionDescription, [NegotiatedStream]), PeerConnectionError> = await withCheckedContinuation { continuation in
            loop.execute {
                self.acceptOffer(offer, dataChannelLabel: dataChannelLabel) { continuation.resume(returning: $0) }
            }
        }
        return try result.get()
    }

    func acceptOffer(
        _ offer: SessionDescription, dataChannelLabel: String?,
        completion: @escaping (Result<(SessionDescription, [NegotiatedStream]), PeerConnectionError>) -> Void
    ) {
        loop.assertInLoop()
        switch state {
        case .closed:
            completion(.failure(.closed))
            return
        case .failed(let reason):
            // Only an offer that restarts ICE can bring back a connection ICE lost.
            guard iceFailed, localParameters != nil else {
                completion(.failure(.badOffer("the connection failed: \(reason)")))
                return
            }
            acceptRenegotiation(offer, completion: completion)
            return
        case .connecting, .connected:
            acceptRenegotiation(offer, completion: completion)
            return
        case .new:
            break
        }
        let remote: RemoteTransportParameters
        do {
            remote = try RemoteTransportParameters(offer: offer)
        } catch {
            completion(.failure(error))
            return
        }
        guard let role = DTLSRole(answeringRemoteSetup: remote.setup) else {
            completion(.failure(.badOffer("a=setup:\(remote.setup) cannot be answered")))
            return
        }
        dtlsRole = role
        requestedDataChannelLabel = dataChannelLabel
        self.dataChannelLabel = offer.media.contains { $0.kind == "application" && !$0.isRejected } ? dataChannelLabel : nil
        pendingNegotiation = PendingNegotiation(
            complete: { [unowned self] local in
                let negotiated: (answer: SessionDescription, streams: [NegotiatedStream])
                do {
                    negotiated = try AnswerBuilder.answer(to: offer, local: local)
                    try self.startTransport(remote: remote)
                } catch let error as AnswerBuilder.Error {
                    self.fail(.badOffer("\(error)"))
                    completion(.failure(.badOffer("\(error)")))
                    return
                } catch let error as PeerConnectionError {
                    self.fail(error)
                    completion(.failure(error))
                    return
                } catch {
                    completion(.failure(.badOffer("\(error)")))
                    return
                }
                if !negotiated.streams.contains(where: { $0.kind == .data && $0.isAccepted }) { self.dataChannelLabel = nil }
                completion(.success((negotiated.answer, negotiated.streams)))
            },
            fail: { error in completion(.failure(error)) })
        do {
            try startGathering(controlling: false)
        } catch {
            pendingNegotiation = nil
            completion(.failure(error))
        }
    }

    /// Adds a candidate the server trickled after its SDP (`candidate:` attribute value).
    public func addRemoteCandidate(_ attribute: String) {
        loop.execute {
            guard let ice = self.ice else { return }
            try? ice.addRemoteCandidate(attribute.hasPrefix("candidate:") ? attribute : "candidate:" + attribute)
        }
    }

    // MARK: ICE

    func startGathering(controlling: Bool) throws(PeerConnectionError) {
        let agent: ICEAgent
        do {
            agent = try ICEAgent(
                loop: loop, role: controlling ? .controlling : .controlled, ice: iceConfiguration,
                serverCredentials: iceServerCredentials, consentFreshness: iceConsentFreshness,
                onEvent: { [weak self] event in self?.handleICEEvent(event) },
                onDatagram: { [weak self] bytes in self?.handleDatagram(bytes) })
            ice = agent
            try agent.gather()
        } catch {
            throw .ice(error)
        }
        setState(.connecting)
    }

    func handleICEEvent(_ event: ICEAgent.Event) {
        switch event {
        case .gatheringDone:
            guard let pending = pendingNegotiation, let ice else { return }
            pendingNegotiation = nil
            do {
                // Under the relay policy an offer or answer without a relayed candidate could
                // only fail later, for a reason nobody could read from it.
                try ice.checkCandidatesForPolicy()
                let credentials = try ice.localCredentials()
                // SDP attribute values go without the "candidate:" name.
                let candidates = try ice.localCandidateAttributes().map { attribute in
                    attribute.hasPrefix("candidate:") ? String(attribute.dropFirst("candidate:".count)) : attribute
                }
                let local = LocalTransportParameters(
                    iceUfrag: credentials.ufrag, icePassword: credentials.password, candidates: candidates,
                    fingerprint: certificate.fingerprint, setup: dtlsRole.sdpSetup)
                localParameters = local
                pending.complete(local)
            } catch {
                pending.fail(.ice(error))
            }
        case .stateChanged(.connected):
            // After an ICE restart the DTLS association and SRTP keys are still there.
            if srtpIn != nil, case .connecting = state { setState(.connected) }
            startDTLSIfReady()
        case .stateChanged(.failed):
            iceFailed = true
            fail(.iceFailed)
        case .selectedPair(let pair):
            selectedPair = pair
            handlers.onSelectedPair(pair)
        case .stateChanged:
            break
        }
    }

    /// Sets the remote ICE parameters and creates the DTLS transport.
    func startTransport(remote: RemoteTransportParameters) throws(PeerConnectionError) {
        guard let ice else { throw .closed }
        do {
            try ice.setRemoteCredentials(.init(ufrag: remote.iceUfrag, password: remote.icePassword))
        } catch {
            throw .ice(error)
        }
        remoteICEUfrag = remote.iceUfrag
        // Candidates we cannot use (TCP, RTCP component) are skipped; ICE fails later if none work.
        for candidate in remote.candidates { try? ice.addRemoteCandidate("candidate:" + candidate) }
        do {
            // A first flight lost while the peer's ICE is still settling would otherwise wait out
            // RFC 6347's 1 s timer; browsers start at 50-100 ms on these short paths too.
            dtls = try DTLSTransport(
                role: dtlsRole, certificate: certificate, remoteFingerprint: remote.fingerprint,
                initialRetransmissionTimeout: .milliseconds(100))
        } catch {
            throw .dtls(error)
        }
        if ice.state == .connected { startDTLSIfReady() }
    }

    func startDTLSIfReady() {
        guard let dtls, case .idle = dtls.state else { return }
        if dtlsRole == .client { process(dtls.start()) }
    }

    // MARK: Receive path

    func handleDatagram(_ bytes: UnsafeRawBufferPointer) {
        counters.datagramsIn += 1
        counters.bytesIn += bytes.count
        switch PacketDemuxer.classify(bytes) {
        case .dtls:
            counters.dtlsIn += 1
            guard let dtls else { return }
            process(dtls.receive(Array(bytes)))
        case .rtp:
            counters.rtpIn += 1
            receiveRTP(bytes)
        case .rtcp:
            counters.rtcpIn += 1
            receiveRTCP(bytes)
        default:
            counters.unknownIn += 1
        }
    }

    private func receiveRTP(_ bytes: UnsafeRawBufferPointer) {
        guard let srtpIn, bytes.count <= packetBuffer.count else {
            counters.srtpErrors += 1
            return
        }
        packetBuffer.withUnsafeMutableBytes { buffer in
            buffer.copyMemory(from: bytes)
            let length: Int
            do {
                length = try srtpIn.unprotectRTP(in: buffer, length: bytes.count)
            } catch {
                counters.srtpErrors += 1
                return
            }
            let packet = UnsafeRawBufferPointer(rebasing: buffer[0..<length])
            do {
                let header = try RTPHeader.parse(packet)
                handlers.onRTP(header, packet)
            } catch {
                counters.rtpParseErrors += 1
            }
        }
    }

    private func receiveRTCP(_ bytes: UnsafeRawBufferPointer) {
        guard let srtpIn, bytes.count <= packetBuffer.count else {
            counters.srtpErrors += 1
            return
        }
        let packets: [RTCPPacket]? = packetBuffer.withUnsafeMutableBytes { buffer in
            buffer.copyMemory(from: bytes)
            do {
                let length = try srtpIn.unprotectRTCP(in: buffer, length: bytes.count)
                return try RTCPPacket.parseCompound(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
            } catch is SRTPError {
                counters.srtpErrors += 1
            } catch {
                counters.rtcpParseErrors += 1
            }
            return nil
        }
        if let packets { handlers.onRTCP(packets) }
    }

    // MARK: Send path

    /// Protects and sends one RTP packet. Call on the loop.
    public func sendRTP(_ packet: [UInt8]) throws(PeerConnectionError) {
        try protectAndSend(packet, isRTCP: false)
        counters.rtpOut += 1
    }

    /// Protects and sends one compound RTCP packet. Call on the loop.
    public func sendRTCP(_ packets: [RTCPPacket]) throws(PeerConnectionError) {
        var bytes: [UInt8] = []
        for packet in packets { packet.write(into: &bytes) }
        try sendRTCP(bytes: bytes)
    }

    public func sendRTCP(bytes: [UInt8]) throws(PeerConnectionError) {
        try protectAndSend(bytes, isRTCP: true)
        counters.rtcpOut += 1
    }

    private func protectAndSend(_ packet: [UInt8], isRTCP: Bool) throws(PeerConnectionError) {
        loop.assertInLoop()
        guard let srtpOut, let ice else { throw .notConnected }
        var protected = packet
        do {
            if isRTCP { try srtpOut.protectRTCP(&protected) } else { try srtpOut.protectRTP(&protected) }
        } catch {
            throw .srtp(error)
        }
        do {
            try ice.send(protected)
        } catch {
            throw .ice(error)
        }
        counters.bytesOut += protected.count
    }

    // MARK: State

    func setState(_ new: State) {
        guard state != new else { return }
        if case .closed = state { return }
        if case .failed = state, new != .closed { return }
        state = new
        handlers.onState(new)
    }

    func fail(_ error: PeerConnectionError) {
        if let pending = pendingNegotiation {
            pendingNegotiation = nil
            pending.fail(error)
        }
        setState(.failed("\(error)"))
    }

    /// Sends close_notify, aborts SCTP and stops ICE. Idempotent; safe from any thread.
    public func close() {
        guard loop.inLoop else {
            loop.execute { self.close() }
            return
        }
        guard state != .closed else { return }
        if let dtls {
            let output = dtls.close()
            for datagram in output.datagrams { try? ice?.send(datagram) }
        }
        sctp?.close()
        sctp = nil
        ice?.close()
        srtpIn?.close()
        srtpOut?.close()
        cancelTimer()
        if let pending = pendingNegotiation {
            pendingNegotiation = nil
            pending.fail(.closed)
        }
        setState(.closed)
    }
}
