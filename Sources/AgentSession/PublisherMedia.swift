import AgentCore
import AgentTransport
import AgentWire

/// The sending media of one publisher: the PeerConnection on which we offer send-only tracks
/// (and a data section), and, once it is connected, the ``PublishSession`` that sends them
/// (sender reports, NACK answered from the send history, PLI/FIR turned into keyframe requests).
///
/// A platform adapter (Janus today) carries the offer and the answer: it never builds or wires
/// a media object itself, and keeps its own wording for failures (``ConnectOutcome``).
///
///     offer ─▶ (signaling) ─▶ accept(answer:) ─▶ waitConnected ─▶ startSession ─▶ send … ─▶ stopSession ─▶ close
public final class PublisherMedia: Sendable {
    /// How ``waitConnected(timeout:)`` ended.
    public enum ConnectOutcome: Equatable, Sendable {
        case connected
        /// The connection failed (ICE, DTLS), with the reason.
        case failed(String)
        /// Still not connected when the time ran out.
        case timedOut
    }

    public let loop: EventLoop
    public let peer: PeerConnection
    /// The running session and the mids it sends, once started. The loop's alone: written in
    /// the same loop turn that starts the session, read there for statistics and stop.
    private let state: LoopBound<State>

    private struct State {
        var session: PublishSession?
        var mids: [String] = []
    }

    /// - Parameters:
    ///   - ice: where ICE gathers (``ICEAllowList/resolve()``'s addresses), its STUN and TURN
    ///     servers and its policy; `iceServerCredentials` the TURN credentials.
    ///   - onFailure: called on the loop, at most once, with the reason when the connection
    ///     fails (ICE, DTLS), before or after ``waitConnected(timeout:)``: how a platform learns of a
    ///     media connection that dies after the publish.
    public init(
        loop: EventLoop, ice: ICEConfiguration, iceServerCredentials: ICEServerCredentials? = nil,
        onFailure: (@Sendable (String) -> Void)? = nil
    ) throws(PeerConnectionError) {
        self.loop = loop
        var handlers = PeerConnection.Handlers()
        if let onFailure {
            handlers.onState = { state in
                if case .failed(let reason) = state { onFailure(reason) }
            }
        }
        peer = try PeerConnection(loop: loop, ice: ice, iceServerCredentials: iceServerCredentials, handlers: handlers)
        state = LoopBound(State(), loop: loop)
    }

    /// Sending media whose connection gathers host candidates on `localAddresses` only.
    public convenience init(
        loop: EventLoop, localAddresses: [String], onFailure: (@Sendable (String) -> Void)? = nil
    ) throws(PeerConnectionError) {
        try self.init(loop: loop, ice: ICEConfiguration(addresses: localAddresses), onFailure: onFailure)
    }

    /// The candidate pair ICE selected for this connection, nil before it did.
    public func selectedPair() async -> ICESelectedPair? {
        let peer = self.peer
        return try? await loop.submit { peer.selectedPair }
    }

    /// Gathers candidates and returns our offer (we are ICE-controlling).
    /// - Parameter dataChannelLabel: adds a data section and, once SCTP is up, opens a channel
    ///   with this label; nil offers no data.
    public func offer(tracks: [TrackOffer], dataChannelLabel: String?) async throws(PeerConnectionError) -> SessionDescription {
        try await peer.offer(tracks: tracks, dataChannelLabel: dataChannelLabel)
    }

    /// Applies the answer to our offer and starts connecting.
    public func accept(answer: SessionDescription) async throws(PeerConnectionError) {
        try await peer.acceptAnswer(answer)
    }

    /// Polls (every 20 ms) until the connection is up, fails, or `timeout` passes.
    /// - Throws: only when the loop is shut down.
    public func waitConnected(timeout: Duration) async throws -> ConnectOutcome {
        let deadline = ContinuousClock.now + timeout
        let peer = self.peer
        while ContinuousClock.now < deadline {
            let state = try await loop.submit { peer.state }
            if state == .connected { return .connected }
            if case .failed(let reason) = state { return .failed(reason) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return .timedOut
    }

    /// Makes the ``PublishSession`` for the offered tracks and starts it on the loop. Call once
    /// the connection is up, once.
    public func startSession(tracks: [TrackOffer]) async throws -> PublishSession {
        let session = try PublishSession(peer: peer, tracks: tracks)
        let mids = tracks.map(\.mid)
        let state = self.state
        try await loop.submit {
            session.start()
            state.value = State(session: session, mids: mids)
        }
        return session
    }

    /// Waits up to `timeout` for our data channel to open, so a send right after start works.
    /// A peer that refused data leaves it closed; sends then throw.
    public func waitForDataChannel(timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        let peer = self.peer
        while ContinuousClock.now < deadline {
            guard let open = try? await loop.submit({ peer.dataChannelStreamID != nil }) else { return }
            if open { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends a data message on our data channel.
    /// - Throws: ``PeerConnectionError`` when there is no open channel; ``EventLoop/Stopped``.
    public func send(_ payload: DataChannelMessage.Payload) async throws {
        let peer = self.peer
        try await loop.submit { try peer.sendData(payload) }
    }

    /// Send-side counters per published track (by mid); empty before ``startSession(tracks:)``.
    public func statistics() async -> [String: SendStreamStatistics] {
        let state = self.state
        return (try? await loop.submit {
            var result: [String: SendStreamStatistics] = [:]
            guard let session = state.value.session else { return result }
            for mid in state.value.mids { result[mid] = session.statistics(mid: mid) }
            return result
        }) ?? [:]
    }

    /// Stops the session's timers (sender reports); sending stops with the caller. Idempotent.
    public func stopSession() async {
        let state = self.state
        try? await loop.submit { state.value.session?.stop() }
    }

    /// Closes the connection on the loop and waits for it: a close merely queued there could be
    /// dropped when the loop is shut down right after, leaking the SCTP association (and
    /// usrsctp with it). Idempotent.
    public func close() async {
        let peer = self.peer
        try? await loop.submit { peer.close() }
    }
}
