import AgentCore
import AgentTransport
import Synchronization

/// The receiving media of one room member: the subscriber ``PeerConnection`` of the current
/// link (made at its first offer), the ``SubscriptionRouter`` that takes its RTP and RTCP to a
/// ``ReceiveStream`` per media section, and the ``StreamTicker`` whose loop timer sends NACKs,
/// PLI/FIR and receiver reports and reports statistics.
///
/// A platform adapter (Janus today) does the signaling and hands offers in: it never builds or
/// wires a media object itself. What the media path needs to tell the adapter (the connection
/// failed, the data transport died) comes back through ``LinkHandlers``; everything else goes
/// from the loop straight into `sink` with no actor hop per packet.
///
/// The router and ticker live as long as this object, across links; a link's PeerConnection
/// lives until ``closeConnection()``, and the next offer makes a new one.
public final class SubscriberMedia: Sendable {
    /// What one link's PeerConnection reports to the adapter, on the loop. The adapter fences
    /// stale links itself (a handler captures the link it was made for).
    public struct LinkHandlers: Sendable {
        /// The connection failed (ICE, DTLS), with the reason.
        public var onFailure: @Sendable (String) -> Void
        /// The SCTP association under the data channels died: only a new PeerConnection brings
        /// data back.
        public var onDataTransportLost: @Sendable () -> Void

        public init(onFailure: @escaping @Sendable (String) -> Void, onDataTransportLost: @escaping @Sendable () -> Void) {
            self.onFailure = onFailure
            self.onDataTransportLost = onDataTransportLost
        }
    }

    public let loop: EventLoop
    /// Where each link's PeerConnection gathers, through which servers, under which policy.
    public let ice: ICEConfiguration
    /// The TURN servers' username and password.
    let iceServerCredentials: ICEServerCredentials?
    /// IPv4 addresses each link's PeerConnection gathers ICE candidates on.
    public var localAddresses: [String] { ice.addresses }
    public let router: SubscriptionRouter
    let sink: @Sendable (RoomEvent) -> Void
    let ticker: StreamTicker
    let tickInterval: Duration
    /// The link's PeerConnection and the tick timer. A lock rather than the loop: the adapter
    /// takes the connection out synchronously when a link is torn down (no suspension in which a
    /// negotiation could pick up the dying one), and reads it for tests and diagnostics.
    let state = Mutex(State())

    struct State {
        var peer: PeerConnection?
        var timer: LoopTimer?
    }

    /// - Parameters:
    ///   - ice: each link's ICE configuration; `iceServerCredentials` its TURN credentials.
    ///   - tickInterval: how often stream timers run (NACK, PLI/FIR, receiver reports).
    ///   - statisticsInterval: how often every track's statistics reach `sink`.
    ///   - sink: the room events: media, statistics, and each link's selected ICE pair.
    public init(
        loop: EventLoop, ice: ICEConfiguration, iceServerCredentials: ICEServerCredentials? = nil, tickInterval: Duration,
        statisticsInterval: Duration, sink: @escaping @Sendable (RoomEvent) -> Void
    ) {
        self.loop = loop
        self.ice = ice
        self.iceServerCredentials = iceServerCredentials
        self.sink = sink
        self.tickInterval = tickInterval
        router = SubscriptionRouter(loop: loop, sink: sink)
        ticker = StreamTicker(
            router: router, sink: sink, statisticsEvery: Self.ticksPerReport(tick: tickInterval, statistics: statisticsInterval))
    }

    /// Receiving media whose connections gather host candidates on `localAddresses` only.
    public convenience init(
        loop: EventLoop, localAddresses: [String], tickInterval: Duration, statisticsInterval: Duration,
        sink: @escaping @Sendable (RoomEvent) -> Void
    ) {
        self.init(
            loop: loop, ice: ICEConfiguration(addresses: localAddresses), tickInterval: tickInterval,
            statisticsInterval: statisticsInterval, sink: sink)
    }

    /// How many ticks make one statistics interval: at least one, and no trap for a zero or
    /// huge interval (whole nanoseconds, rounded down as the old `Int(Double)` was).
    static func ticksPerReport(tick: Duration, statistics: Duration) -> Int {
        let ratio = statistics.totalNanoseconds / max(1, tick.totalNanoseconds)
        return Int(clamping: max(1, ratio))
    }

    /// The current link's PeerConnection, if an offer made one.
    public var peer: PeerConnection? { state.withLock { $0.peer } }

    // MARK: Timers

    /// Starts the stream timers on the loop from a GLib timeout: no task or actor hop per tick.
    /// Once; a second call does nothing.
    public func startTicking() {
        let ticker = self.ticker
        state.withLock { state in
            guard state.timer == nil else { return }
            state.timer = loop.scheduleRepeating(every: tickInterval) { ticker.fire() }
        }
    }

    /// Stops the timers and, when they ran, sends every track's statistics to the sink a last
    /// time, so what the sink keeps (a manifest) covers every packet received.
    public func stopTicking() async {
        guard let timer = state.withLock({ state in defer { state.timer = nil }; return state.timer }) else { return }
        timer.cancel()
        let ticker = self.ticker
        try? await loop.submit { ticker.reportStatistics() }
    }

    // MARK: The link's connection

    /// Closes the link's PeerConnection and clears the routes, so a new link starts fresh
    /// receive streams. Synchronous: the connection is out before the caller's next suspension.
    /// Idempotent.
    public func closeConnection() {
        let peer = state.withLock { state in defer { state.peer = nil }; return state.peer }
        peer?.close()
        let router = self.router
        let ticker = self.ticker
        loop.execute {
            ticker.peer = nil
            router.update(routes: [])
        }
    }

    /// Statistics of the current link's transport, for tests and diagnostics.
    public func counters() async throws -> PeerConnection.Counters? {
        guard let peer else { return nil }
        return try await loop.submit { peer.counters }
    }

    /// Asks the sender of a participant's track for a keyframe (PLI, then FIR), from any thread.
    public func requestKeyframe(participantID: String, kind: MediaKind) {
        let router = self.router
        loop.execute { router.requestKeyframe(participantID: participantID, kind: kind) }
    }
}
