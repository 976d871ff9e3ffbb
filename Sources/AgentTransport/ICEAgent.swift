import AgentCore
import CAgentShims
import CNice
import Foundation

/// Full ICE (RFC 5245) for one PeerConnection: one stream with one component, because WebRTC with
/// bundle and rtcp-mux (RFC 8843, RFC 5761) carries DTLS, SRTP and SRTCP on a single 5-tuple.
///
/// A thin wrapper over libnice. libnice is GLib-based and calls back on the `GMainContext` it was
/// created with, so the agent belongs to one ``EventLoop``: every method must be called on that
/// loop (asserted), and handlers are called there too. Host candidates are gathered on the
/// allowed addresses only, and UPnP and ICE-TCP are off: the agent sends nothing except to the
/// peer's candidates and to the STUN and TURN servers of its ``ICEConfiguration``.
///
/// TURN servers and the relay-only policy: ICEAgent+Servers.swift. A gathering that ends without
/// a relayed candidate under that policy is ``ICEAgentError/noRelayCandidate(servers:timedOut:)``
/// (``checkCandidatesForPolicy()``).
///
/// Events raised by libnice while one of our own methods is running (libnice emits some signals
/// synchronously, for example gathering-done inside `gather`) are held back and delivered when the
/// method returns, so a handler never re-enters the agent from inside a libnice call.
public final class ICEAgent: @unchecked Sendable {
    // @unchecked Sendable: all mutable state (the NiceAgent, flags, queues, handlers) is touched
    // only on `loop`'s thread. Every public method calls `loop.assertInLoop()` and libnice calls
    // back only on `loop.context`. deinit, which may run elsewhere, hands the teardown to the loop.

    /// The only component: RTP and RTCP are multiplexed.
    static let componentID: guint = 1

    public let loop: EventLoop
    public let role: Role
    /// Where host candidates are gathered, the STUN and TURN servers, the transport policy.
    public let ice: ICEConfiguration
    /// The IPv4 addresses candidates are gathered on.
    public var localAddresses: [String] { ice.addresses }

    var agent: OpaquePointer?
    let streamID: guint
    let callbackTarget: Unmanaged<ICECallbackTarget>
    var signalHandlerIDs: [gulong] = []

    public internal(set) var state: State = .new
    public internal(set) var isGatheringDone = false
    private var hasRemoteCredentials = false
    var remoteCandidatesBeforeGathering: [ICECandidate] = []
    private var eventHandler: ((Event) -> Void)?
    var datagramHandler: ((UnsafeRawBufferPointer) -> Void)?
    private var apiDepth = 0
    private var heldEvents: [Event] = []

    /// Creates the agent on `loop` (call this on the loop). `ice.addresses` are the IPv4
    /// addresses from ``ICEAllowList/resolve()``; libnice gathers only on them.
    ///
    /// - Parameters:
    ///   - ice: addresses, STUN/TURN servers and policy, checked first
    ///     (``ICEConfiguration/check(credentials:)``).
    ///   - serverCredentials: the TURN servers' username and password; handed to libnice only.
    ///   - consentFreshness: send RFC 7675 consent checks on the selected pair; without answers
    ///     for 30 s the state becomes ``State/failed``.
    ///   - onEvent: gathering and connection state, on the loop.
    ///   - onDatagram: each received datagram, on the loop. The buffer is valid only during the
    ///     call, so the receive path can parse in place without copying.
    public init(
        loop: EventLoop, role: Role, ice: ICEConfiguration, serverCredentials: ICEServerCredentials? = nil,
        consentFreshness: Bool = false,
        onEvent: @escaping (Event) -> Void = { _ in },
        onDatagram: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }
    ) throws(ICEAgentError) {
        loop.assertInLoop()
        let localAddresses = ice.addresses
        guard !localAddresses.isEmpty else { throw .creationFailed("no local addresses to gather on") }
        do {
            try ice.check(credentials: serverCredentials)
        } catch {
            throw .configuration(error)
        }
        self.loop = loop
        self.role = role
        self.ice = ice
        self.eventHandler = onEvent
        self.datagramHandler = onDatagram

        var options = NiceAgentOption(NICE_AGENT_OPTION_REGULAR_NOMINATION.rawValue)
        if consentFreshness { options = NiceAgentOption(options.rawValue | NICE_AGENT_OPTION_CONSENT_FRESHNESS.rawValue) }
        guard let agent = nice_agent_new_full(loop.context, NICE_COMPATIBILITY_RFC5245, options) else {
            throw .creationFailed("nice_agent_new_full")
        }
        let object = UnsafeMutableRawPointer(agent)
        agent_g_object_set_boolean(object, "controlling-mode", role == .controlling ? 1 : 0)
        // Off: UPnP would multicast SSDP to the LAN, and ICE-TCP candidates are not used.
        agent_g_object_set_boolean(object, "upnp", 0)
        agent_g_object_set_boolean(object, "ice-tcp", 0)
        agent_g_object_set_boolean(object, "ice-udp", 1)

        for address in localAddresses {
            var niceAddress = NiceAddress()
            nice_address_init(&niceAddress)
            guard nice_address_set_from_string(&niceAddress, address) != 0,
                nice_address_ip_version(&niceAddress) == 4
            else {
                g_object_unref(object)
                throw .invalidLocalAddress(address)
            }
            nice_agent_add_local_address(agent, &niceAddress)
        }

        let streamID = nice_agent_add_stream(agent, 1)
        guard streamID != 0 else {
            g_object_unref(object)
            throw .creationFailed("nice_agent_add_stream")
        }
        do {
            try Self.configureServers(agent, streamID: streamID, ice: ice, credentials: serverCredentials)
        } catch {
            g_object_unref(object)
            throw error
        }
        self.agent = agent
        self.streamID = streamID
        self.callbackTarget = Unmanaged.passRetained(ICECallbackTarget())
        callbackTarget.takeUnretainedValue().agent = self
        connectSignals(agent)
        nice_agent_attach_recv(
            agent, streamID, Self.componentID, loop.context, iceReceiveTrampoline,
            callbackTarget.toOpaque())
    }

    /// Creates the agent with candidates restricted by `allowList` (``ICEAllowList/resolve()``).
    public convenience init(
        loop: EventLoop, role: Role, allowList: ICEAllowList,
        onEvent: @escaping (Event) -> Void = { _ in },
        onDatagram: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }
    ) throws(ICEAgentError) {
        let addresses: [String]
        do {
            addresses = try allowList.resolve()
        } catch {
            throw .allowList(error)
        }
        try self.init(loop: loop, role: role, localAddresses: addresses, onEvent: onEvent, onDatagram: onDatagram)
    }

    /// Creates an agent that gathers host candidates on `localAddresses` only: no servers.
    public convenience init(
        loop: EventLoop, role: Role, localAddresses: [String], consentFreshness: Bool = false,
        onEvent: @escaping (Event) -> Void = { _ in },
        onDatagram: @escaping (UnsafeRawBufferPointer) -> Void = { _ in }
    ) throws(ICEAgentError) {
        try self.init(
            loop: loop, role: role, ice: ICEConfiguration(addresses: localAddresses), consentFreshness: consentFreshness,
            onEvent: onEvent, onDatagram: onDatagram)
    }

    deinit {
        guard let agent else { return }
        let teardown = NiceAgentTeardown(
            agent: agent, streamID: streamID, context: loop.context,
            signalHandlerIDs: signalHandlerIDs, callbackTarget: callbackTarget)
        if loop.inLoop {
            teardown.run()
        } else {
            loop.execute { teardown.run() }
        }
    }

    // MARK: Gathering and credentials

    /// Starts gathering host candidates on the allowed addresses. ``Event/gatheringDone`` follows.
    public func gather() throws(ICEAgentError) {
        try withAPI { () throws(ICEAgentError) in
            let agent = try liveAgent()
            guard nice_agent_gather_candidates(agent, streamID) != 0 else { throw .gatheringFailed }
        }
    }

    /// Our ufrag and password for the SDP (`a=ice-ufrag`, `a=ice-pwd`).
    public func localCredentials() throws(ICEAgentError) -> Credentials {
        try withAPI { () throws(ICEAgentError) in
            let agent = try liveAgent()
            var ufrag: UnsafeMutablePointer<gchar>?
            var password: UnsafeMutablePointer<gchar>?
            guard nice_agent_get_local_credentials(agent, streamID, &ufrag, &password) != 0,
                let ufrag, let password
            else { throw .creationFailed("nice_agent_get_local_credentials") }
            defer {
                g_free(ufrag)
                g_free(password)
            }
            return Credentials(ufrag: String(cString: ufrag), password: String(cString: password))
        }
    }

    /// Local candidates gathered so far (complete after ``Event/gatheringDone``).
    public func localCandidates() throws(ICEAgentError) -> [ICECandidate] {
        try withAPI { () throws(ICEAgentError) in
            let agent = try liveAgent()
            let list = nice_agent_get_local_candidates(agent, streamID, Self.componentID)
            defer { freeCandidateList(list) }
            var result: [ICECandidate] = []
            var node = list
            while let current = node {
                defer { node = current.pointee.next }
                guard let raw = current.pointee.data else { continue }
                let candidate = raw.assumingMemoryBound(to: NiceCandidate.self)
                guard let sdp = nice_agent_generate_local_candidate_sdp(agent, candidate) else { continue }
                defer { g_free(sdp) }
                // libnice writes what RFC 5245 allows, so this only fails on a libnice bug.
                // Under the relay policy only relayed candidates may leave (force-relay already
                // keeps the others out; this makes sure of it).
                if let parsed = try? ICECandidate(sdpAttribute: String(cString: sdp)),
                    ice.policy == .all || parsed.kind == .relay
                {
                    result.append(parsed)
                }
            }
            return result
        }
    }

    /// Local candidates as `candidate:…` attribute values for SDP or trickle.
    public func localCandidateAttributes() throws(ICEAgentError) -> [String] {
        try localCandidates().map(\.sdpAttribute)
    }

    /// The peer's `a=ice-ufrag` and `a=ice-pwd`.
    public func setRemoteCredentials(_ credentials: Credentials) throws(ICEAgentError) {
        try credentials.validate()
        try withAPI { () throws(ICEAgentError) in
            let agent = try liveAgent()
            guard nice_agent_set_remote_credentials(agent, streamID, credentials.ufrag, credentials.password) != 0
            else { throw .invalidCredentials("libnice refused the remote credentials") }
            hasRemoteCredentials = true
        }
    }

    // MARK: Remote candidates

    /// Adds one remote candidate from its SDP attribute (`candidate:…` or `a=candidate:…`).
    public func addRemoteCandidate(_ attribute: String) throws(ICEAgentError) {
        let candidate: ICECandidate
        do {
            candidate = try ICECandidate(sdpAttribute: attribute)
        } catch {
            throw .invalidCandidate(error)
        }
        try addRemoteCandidate(candidate)
    }

    /// Adds one remote candidate. Before local gathering is done the candidate is held and added
    /// afterwards, as libnice asks.
    public func addRemoteCandidate(_ candidate: ICECandidate) throws(ICEAgentError) {
        guard candidate.component == Self.componentID else { throw .unsupportedComponent(candidate.component) }
        guard candidate.isUDP else { throw .unsupportedTransport(candidate.transport) }
        try withAPI { () throws(ICEAgentError) in
            _ = try liveAgent()
            if isGatheringDone {
                try applyRemoteCandidate(candidate)
            } else {
                remoteCandidatesBeforeGathering.append(candidate)
            }
        }
    }

    // MARK: Data

    /// Sends one datagram on the selected pair.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(ICEAgentError) {
        loop.assertInLoop()
        guard let agent else { throw .closed }
        let base = bytes.baseAddress?.assumingMemoryBound(to: gchar.self)
        let sent = nice_agent_send(agent, streamID, Self.componentID, guint(bytes.count), base)
        guard sent == bytes.count else { throw .sendFailed(length: bytes.count) }
    }

    public func send(_ bytes: [UInt8]) throws(ICEAgentError) {
        let result: Result<Void, ICEAgentError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(ICEAgentError) in try send(buffer) }
        }
        try result.get()
    }

    // MARK: Restart and close

    /// ICE restart (RFC 5245 §9.1.1.1): new local credentials, and remote credentials and
    /// candidates must be set again. Returns the new local credentials for the new offer/answer.
    @discardableResult
    public func restart() throws(ICEAgentError) -> Credentials {
        try withAPI { () throws(ICEAgentError) in
            let agent = try liveAgent()
            guard nice_agent_restart_stream(agent, streamID) != 0 else {
                throw .creationFailed("nice_agent_restart_stream")
            }
            hasRemoteCredentials = false
        }
        return try localCredentials()
    }

    /// Stops ICE and frees libnice. No events or datagrams are delivered afterwards. Idempotent.
    public func close() {
        loop.assertInLoop()
        guard let agent else { return }
        self.agent = nil
        state = .closed
        heldEvents.removeAll()
        remoteCandidatesBeforeGathering.removeAll()
        eventHandler = nil
        datagramHandler = nil
        NiceAgentTeardown(
            agent: agent, streamID: streamID, context: loop.context,
            signalHandlerIDs: signalHandlerIDs, callbackTarget: callbackTarget
        ).run()
        signalHandlerIDs = []
    }

    // MARK: Helpers

    func liveAgent() throws(ICEAgentError) -> OpaquePointer {
        guard let agent else { throw .closed }
        return agent
    }

    /// Runs a libnice call, holding back events it raises until it returns.
    private func withAPI<T>(_ body: () throws(ICEAgentError) -> T) throws(ICEAgentError) -> T {
        loop.assertInLoop()
        apiDepth += 1
        defer {
            apiDepth -= 1
            if apiDepth == 0 { deliverHeldEvents() }
        }
        return try body()
    }

    func emit(_ event: Event) {
        if apiDepth > 0 {
            heldEvents.append(event)
        } else {
            eventHandler?(event)
        }
    }

    private func deliverHeldEvents() {
        while !heldEvents.isEmpty, apiDepth == 0 {
            let event = heldEvents.removeFirst()
            eventHandler?(event)
        }
    }

    func applyRemoteCandidate(_ candidate: ICECandidate) throws(ICEAgentError) {
        let agent = try liveAgent()
        guard let parsed = nice_agent_parse_remote_candidate_sdp(agent, streamID, "a=" + candidate.sdpAttribute)
        else { throw .candidateRejected(candidate.sdpAttribute) }
        let list = g_slist_append(nil, parsed)
        defer { freeCandidateList(list) }
        guard nice_agent_set_remote_candidates(agent, streamID, Self.componentID, list) >= 1 else {
            throw .candidateRejected(candidate.sdpAttribute)
        }
    }
}
