import AgentCore
import AgentSession
import AgentTransport
import Foundation

/// An unseen audience member of a Janus VideoRoom: it joins as a participant that never
/// publishes (for the roster and its events), subscribes to every publisher on one multistream
/// subscriber PeerConnection, and reports what happens as ``RoomEvent``s.
///
/// Control (Janus requests, renegotiation) runs in this actor, one command at a time in order;
/// media runs on the transport loop, from the PeerConnection through the ``SubscriptionRouter``
/// straight into `sink`, with no actor hop per packet. The media objects are ``SubscriberMedia``'s:
/// this actor hands it Janus's offers and hears back when the connection fails.
///
/// **Connection state.** ``start()`` reports ``ConnectionState/connecting`` then
/// ``ConnectionState/connected``. A drop — the WebSocket closing, the session probe failing
/// (Janus answering 458 "session not found" after a restart, or not answering), Janus hanging up
/// or detaching a handle, the subscriber PeerConnection failing — reports
/// ``ConnectionState/reconnecting(attempt:)`` and recovers, as its ``LinkDriver``'s
/// ``LinkStateMachine`` decides (JanusAudience+LinkDriverTarget.swift): an ICE failure with
/// signaling still up first tries an ICE restart; otherwise, or if that fails, the whole link
/// (connection, session, VideoRoom handle, subscriber handle, PeerConnection) is built again
/// under ``RoomJoin/reconnect``'s backoff, and every current publisher is subscribed again.
/// Retries that run out end with ``DisconnectReason/gaveUp(_:)``; a refused token or pin ends
/// with ``DisconnectReason/refused(_:)`` at once.
public actor JanusAudience {
    /// What to join (a ``RoomJoin`` with a ``RoomEndpoint/janus(server:room:)`` endpoint, and its
    /// ``RoomCredentials``) and the two local intervals of the receive side. Not a copy of the
    /// join: every join setting is read from ``join``.
    public struct Configuration: Sendable {
        public var join: RoomJoin
        public var credentials: RoomCredentials
        /// How often stream timers run (NACK, PLI/FIR, receiver reports).
        public var tickInterval: Duration
        public var statisticsInterval: Duration
        /// Sees what the receive side takes in (a capture for replay), when set.
        public var packetTap: (any ReceivePacketTap)?

        public init(
            join: RoomJoin, credentials: RoomCredentials, tickInterval: Duration = .milliseconds(20),
            statisticsInterval: Duration = .seconds(1), packetTap: (any ReceivePacketTap)? = nil
        ) {
            self.packetTap = packetTap
            self.join = join
            self.credentials = credentials
            self.tickInterval = tickInterval
            self.statisticsInterval = statisticsInterval
        }

        /// An audience join of `room` on `server`, in the labels the tests and tools use.
        public init(
            server: String, room: String, display: String, token: String? = nil, pin: String? = nil, create: Bool = false,
            iceAddresses: [String], tickInterval: Duration = .milliseconds(20), statisticsInterval: Duration = .seconds(1)
        ) {
            self.init(
                join: RoomJoin(endpoint: .janus(server: server, room: room), display: display, create: create, iceAddresses: iceAddresses),
                credentials: RoomCredentials(token: token, pin: pin), tickInterval: tickInterval, statisticsInterval: statisticsInterval)
        }

        /// The VideoRoom's name (a Janus join always has one).
        var room: String { join.room ?? "" }

        /// ``RoomJoin/reconnect``: how to retry after a drop.
        public var reconnect: ReconnectPolicy {
            get { join.reconnect }
            set { join.reconnect = newValue }
        }

        /// ``RoomTimeouts/healthCheck``: how often the session is probed with a `keepalive`. A
        /// probe answered 458 (Janus lost the session), or two in a row unanswered, count as a drop.
        public var healthCheckInterval: Duration {
            get { join.timeouts.healthCheck }
            set { join.timeouts.healthCheck = newValue }
        }
    }

    /// Where the audience stands: joined, recovering from a drop, or done for good.
    enum Phase: Equatable {
        case idle, connected, recovering, ended
    }

    public let configuration: Configuration
    public let loop: EventLoop
    let sink: @Sendable (RoomEvent) -> Void
    /// The subscriber PeerConnection of the current link, the router and the stream timers.
    let media: SubscriberMedia
    /// The core token for the next connection (``updateToken(_:)``).
    var token: String?

    // The link: everything one connection to Janus holds, rebuilt by a reconnect.
    var connection: JanusConnection?
    var session: JanusSession?
    var videoRoom: VideoRoom?
    var subscriber: VideoRoomSubscriber?
    var joined: VideoRoomJoined?
    /// The subscriber streams (mid → feed) of the link's last offer that listed them.
    var offeredStreams: [VideoRoomSubscriberStream] = []
    /// Watchers of the current link (events, health probe); cancelled when it is torn down.
    var linkTasks: [Task<Void, Never>] = []
    /// The driver's number of the link built or up (0: none): watchers and offers of another
    /// link are ignored.
    var generation = 0
    /// Runs the link's life (join, drop, ICE restart, rejoin, give up) on this actor.
    let driver: LinkDriver
    /// Set by a rejoin's resync until its `connected` announces the newcomers.
    var rejoined = false

    // The roster, kept across links.
    var announced: [String: String] = [:]
    var subscribedFeeds: Set<String> = []
    /// Announced participants that unpublished and stay in the room: not subscribed until they
    /// publish again.
    var unpublishedFeeds: Set<String> = []
    var tracks: Set<TrackKey> = []

    var commands: AsyncStream<Command>.Continuation?
    var phase = Phase.idle
    var stopped = false
    /// Problems that did not stop the session (a failed renegotiation, an unusable offer).
    public internal(set) var warnings: [String] = []
    /// The last state reported; nil before ``start()``.
    public private(set) var connectionState: ConnectionState?
    /// Drops recovered by rebuilding the link, and by an ICE restart.
    public internal(set) var reconnects = 0
    public internal(set) var iceRestarts = 0

    struct TrackKey: Hashable {
        let participantID: String
        let kind: MediaKind
    }

    public init(configuration: Configuration, loop: EventLoop, sink: @escaping @Sendable (RoomEvent) -> Void) {
        self.configuration = configuration
        self.loop = loop
        self.sink = sink
        token = configuration.credentials.token
        media = SubscriberMedia(
            loop: loop, ice: configuration.join.ice, iceServerCredentials: configuration.credentials.iceServer,
            tickInterval: configuration.tickInterval,
            statisticsInterval: configuration.statisticsInterval, sink: sink)
        if let tap = configuration.packetTap {
            let router = media.router
            loop.execute { router.setTap(tap) }
        }
        driver = LinkDriver(configuration: Self.linkConfiguration(configuration.join))
        driver.bind(self)
    }

    /// The current link's subscriber PeerConnection, for tests and diagnostics.
    var peer: PeerConnection? { media.peer }

    // MARK: Start and stop

    /// Connects, joins the room (creating it with `create`), announces the publishers already
    /// there and subscribes to them. The first join is not retried: its error is thrown.
    /// - Throws: ``JanusError`` — connectFailed, 403/405 (token), 426 (no such room), 433 (pin).
    public func start() async throws {
        guard phase == .idle, !stopped, commands == nil else { return }
        startCommandQueue()
        try await driver.start()
    }

    /// Leaves the room and closes everything. Idempotent; tolerates a dead server.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        commands?.finish()
        // Final figures, so what the sink keeps (a manifest) covers every packet received.
        await media.stopTicking()
        // A rejoin in flight fails fast once its connection is closed.
        await driver.stop()
    }

    /// Replaces the core token: sent on every later request, and used by every rejoin.
    public func updateToken(_ token: String?) async {
        self.token = token
        await connection?.setToken(token)
    }

    func report(_ state: ConnectionState) {
        connectionState = state
        sink(.connectionState(state, at: Date()))
    }

    // MARK: Roster

    func handle(_ event: VideoRoomEvent, generation: Int) {
        switch event {
        case .publishers(let publishers):
            announce(publishers)
        case .unpublished(let id):
            // Still in the room: a publisher that stops, or republishes (another codec, a new
            // PeerConnection), keeps its identity; its next `publishers` event subscribes again.
            guard announced[id] != nil else { return }
            unpublishedFeeds.insert(id)
            if subscribedFeeds.contains(id) { commands?.yield(.unsubscribe([id])) }
            removeTracks(of: id)
        case .leaving(let id, _):
            // Janus says `leaving` for a participant that published once, publishing or not.
            guard announced.removeValue(forKey: id) != nil else { return }
            unpublishedFeeds.remove(id)
            if subscribedFeeds.contains(id) { commands?.yield(.unsubscribe([id])) }
            removeTracks(of: id)
            sink(.participantLeft(id: id, at: Date()))
        case .roomDestroyed:
            warnings.append("the room was destroyed")
            driver.send(.roomDestroyed(generation: generation))
        case .other(let data) where data["leaving"]?.stringValue == "ok" && data["reason"]?.stringValue == "kicked":
            driver.send(.refused(generation: generation, reason: "kicked out of the room"))
        default:
            break
        }
    }

    /// Announces publishers we have not seen and subscribes to them: a user is always announced
    /// before any of their tracks. A participant announced before that publishes again (after
    /// `unpublished`) is subscribed again, not announced twice.
    func announce(_ publishers: [VideoRoomPublisher], subscribe: Bool = true) {
        var wanted: [String] = []
        for publisher in publishers where isRecorded(publisher) {
            unpublishedFeeds.remove(publisher.id)
            if announced[publisher.id] == nil {
                let display = publisher.display ?? publisher.id
                announced[publisher.id] = display
                sink(.participantJoined(id: publisher.id, display: display, at: Date()))
                wanted.append(publisher.id)
            } else if !subscribedFeeds.contains(publisher.id) {
                wanted.append(publisher.id)
            }
        }
        if subscribe, !wanted.isEmpty { commands?.yield(.subscribe(wanted)) }
    }

    /// Whether a publisher is one we announce and subscribe to (not ourselves, not ignored).
    func isRecorded(_ publisher: VideoRoomPublisher) -> Bool {
        publisher.id != joined?.id && !configuration.join.ignoredParticipantIDs.contains(publisher.id)
    }

    func removeTracks(of id: String) {
        for kind in [MediaKind.audio, .video] where tracks.remove(TrackKey(participantID: id, kind: kind)) != nil {
            sink(.trackRemoved(participantID: id, kind: kind))
        }
    }

    // MARK: Media

    /// Statistics of the transport, for tests and diagnostics.
    public func transportCounters() async throws -> PeerConnection.Counters? {
        try await media.counters()
    }

    /// Asks the sender of a participant's track for a keyframe (PLI, then FIR), from any thread.
    public nonisolated func requestKeyframe(participantID: String, kind: MediaKind) {
        media.requestKeyframe(participantID: participantID, kind: kind)
    }
}
