import Foundation

/// An unseen audience member of a Janus VideoRoom: it joins as a participant that never
/// publishes (for the roster and its events), subscribes to every publisher on one multistream
/// subscriber PeerConnection, and reports what happens as ``RoomEvent``s.
///
/// Control (Janus requests, renegotiation) runs in this actor, one command at a time in order;
/// media runs on the transport loop, from the PeerConnection through the ``SubscriptionRouter``
/// straight into `sink`, with no actor hop per packet.
public actor JanusAudience {
    public struct Configuration: Sendable {
        public var server: String
        public var room: String
        public var display: String
        public var token: String?
        public var pin: String?
        public var create: Bool
        /// IPv4 addresses to gather ICE candidates on (``ICEAllowList/resolve()``).
        public var iceAddresses: [String]
        /// How often stream timers run (NACK, PLI/FIR, receiver reports).
        public var tickInterval: Duration
        public var statisticsInterval: Duration
        /// Publishers neither announced nor subscribed to: a bot's own publisher, whose media
        /// it already has.
        public var ignoredPublisherIDs: Set<String> = []

        public init(
            server: String, room: String, display: String, token: String? = nil, pin: String? = nil, create: Bool = false,
            iceAddresses: [String], tickInterval: Duration = .milliseconds(20), statisticsInterval: Duration = .seconds(1)
        ) {
            self.server = server
            self.room = room
            self.display = display
            self.token = token
            self.pin = pin
            self.create = create
            self.iceAddresses = iceAddresses
            self.tickInterval = tickInterval
            self.statisticsInterval = statisticsInterval
        }
    }

    private enum Command: Sendable {
        case subscribe([String])
        case unsubscribe([String])
        case offer(VideoRoomSubscriber.Offer)
    }

    public let configuration: Configuration
    public let loop: EventLoop
    private let sink: @Sendable (RoomEvent) -> Void
    private let router: SubscriptionRouter
    private let connection: JanusConnection
    private var session: JanusSession?
    private var videoRoom: VideoRoom?
    private var subscriber: VideoRoomSubscriber?
    private var peer: PeerConnection?
    private var joined: VideoRoomJoined?
    private var announced: [String: String] = [:]
    private var subscribedFeeds: Set<String> = []
    private var tracks: Set<TrackKey> = []
    private var tasks: [Task<Void, Never>] = []
    private var commands: AsyncStream<Command>.Continuation?
    private var stopped = false
    private var ticker: StreamTicker?
    private var timer: LoopTimer?
    /// Problems that did not stop the session (a failed renegotiation, an unusable offer).
    public private(set) var warnings: [String] = []

    private struct TrackKey: Hashable {
        let participantID: String
        let kind: TrackKind
    }

    public init(configuration: Configuration, loop: EventLoop, sink: @escaping @Sendable (RoomEvent) -> Void) {
        self.configuration = configuration
        self.loop = loop
        self.sink = sink
        router = SubscriptionRouter(loop: loop, sink: sink)
        connection = JanusConnection(url: configuration.server, loop: loop, token: configuration.token)
    }

    // MARK: Start and stop

    /// Connects, joins the room (creating it with `create`), announces the publishers already
    /// there and subscribes to them.
    /// - Throws: ``JanusError`` — connectFailed, 403/405 (token), 426 (no such room), 433 (pin).
    public func start() async throws {
        try await connection.connect()
        let session = try await JanusSession.create(on: connection)
        self.session = session
        let videoRoom = try await VideoRoom.attach(to: session)
        self.videoRoom = videoRoom
        if configuration.create, try await !videoRoom.exists(room: configuration.room) {
            var options = VideoRoomCreateOptions()
            options.pin = configuration.pin
            options.publishers = 16
            do {
                try await videoRoom.create(room: configuration.room, options: options)
            } catch JanusError.plugin(JanusError.Code.roomExists, _) {
                // Someone else created it between our check and our create: fine.
            }
        }
        let joined = try await videoRoom.joinAsParticipant(
            room: configuration.room, display: configuration.display, pin: configuration.pin)
        self.joined = joined

        let (stream, continuation) = AsyncStream<Command>.makeStream()
        commands = continuation
        tasks.append(Task { [weak self] in
            for await command in stream { await self?.perform(command) }
        })
        tasks.append(Task { [weak self] in
            for await event in videoRoom.events { await self?.handle(event) }
        })
        startTimers()
        announce(joined.publishers)
    }

    /// Leaves the room and closes everything. Idempotent; tolerates a dead server.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        commands?.finish()
        timer?.cancel()
        // Final figures, so what the sink keeps (a manifest) covers every packet received.
        if let ticker { try? await loop.submit { ticker.reportStatistics() } }
        for task in tasks { task.cancel() }
        tasks.removeAll()
        // Closed on the loop before anyone shuts the loop down: a close merely queued there
        // could be dropped with the loop, leaking the SCTP association (and usrsctp with it).
        if let peer { try? await loop.submit { peer.close() } }
        if let subscriber { await subscriber.close() }
        if let videoRoom {
            await videoRoom.close()
        } else {
            await session?.destroy()
            await connection.close()
        }
    }

    // MARK: Roster

    private func handle(_ event: VideoRoomEvent) {
        switch event {
        case .publishers(let publishers):
            announce(publishers)
        case .unpublished(let id), .leaving(let id, _):
            guard announced.removeValue(forKey: id) != nil else { return }
            if subscribedFeeds.contains(id) { commands?.yield(.unsubscribe([id])) }
            for kind in [TrackKind.audio, .video] where tracks.remove(TrackKey(participantID: id, kind: kind)) != nil {
                sink(.trackRemoved(participantID: id, kind: kind))
            }
            sink(.participantLeft(id: id, at: Date()))
        case .roomDestroyed:
            warnings.append("the room was destroyed")
        default:
            break
        }
    }

    /// Announces publishers we have not seen and subscribes to them: a user is always announced
    /// before any of their tracks.
    private func announce(_ publishers: [VideoRoomPublisher]) {
        var fresh: [String] = []
        for publisher in publishers where announced[publisher.id] == nil && publisher.id != joined?.id
            && !configuration.ignoredPublisherIDs.contains(publisher.id)
        {
            let display = publisher.display ?? publisher.id
            announced[publisher.id] = display
            sink(.participantJoined(id: publisher.id, display: display, at: Date()))
            fresh.append(publisher.id)
        }
        if !fresh.isEmpty { commands?.yield(.subscribe(fresh)) }
    }

    // MARK: Subscription and negotiation (one command at a time)

    private func perform(_ command: Command) async {
        guard !stopped, let session else { return }
        do {
            switch command {
            case .subscribe(let feeds):
                let wanted = feeds.filter { announced[$0] != nil && !subscribedFeeds.contains($0) }
                guard !wanted.isEmpty else { return }
                if let subscriber {
                    subscribedFeeds.formUnion(wanted)
                    if let offer = try await subscriber.subscribe(feeds: wanted) { try await negotiate(offer) }
                } else {
                    let (subscriber, offer) = try await VideoRoomSubscriber.join(
                        session: session, room: configuration.room, feeds: wanted, privateID: joined?.privateID,
                        pin: configuration.pin)
                    self.subscriber = subscriber
                    subscribedFeeds.formUnion(wanted)
                    watch(subscriber)
                    try await negotiate(offer)
                }
            case .unsubscribe(let feeds):
                let present = feeds.filter { subscribedFeeds.contains($0) }
                subscribedFeeds.subtract(present)
                guard let subscriber, !present.isEmpty else { return }
                if let offer = try await subscriber.unsubscribe(feeds: present) { try await negotiate(offer) }
            case .offer(let offer):
                try await negotiate(offer)
            }
        } catch {
            warnings.append("\(command): \(error)")
        }
    }

    /// Offers Janus sends on its own (a publisher left, or our subscribe came back as an event).
    private func watch(_ subscriber: VideoRoomSubscriber) {
        tasks.append(Task { [weak self] in
            for await message in subscriber.handle.events {
                guard let data = message.pluginData, let jsep = message.jsep,
                    let offer = try? VideoRoomSubscriber.offer(from: data, jsep: jsep)
                else { continue }
                await self?.enqueue(.offer(offer))
            }
        })
    }

    private func enqueue(_ command: Command) {
        commands?.yield(command)
    }

    /// Answers one offer: routes first (so the first packets find their streams), then `start`.
    private func negotiate(_ offer: VideoRoomSubscriber.Offer) async throws {
        let description = try SessionDescription.parse(offer.sdp)
        let peer = try peerConnection()
        let (answer, negotiated) = try await peer.answer(offer: description, dataChannelLabel: "JanusDataChannel")
        let feedsByMid = Dictionary(offer.streams.compactMap { stream in stream.feedID.map { (stream.mid, $0) } }) { first, _ in first }
        var routes: [SubscriptionRouter.Route] = []
        for stream in negotiated where stream.isAccepted && stream.kind != .data {
            guard let feed = feedsByMid[stream.mid], let codec = stream.codec else { continue }
            routes.append(SubscriptionRouter.Route(
                mid: stream.mid, participantID: feed, kind: stream.kind == .audio ? .audio : .video, codec: codec,
                clockRate: stream.clockRate, ssrcs: stream.ssrcs, midExtensionID: stream.midExtensionID))
        }
        // Sections Janus emptied (a publisher left) come back inactive: that is no problem. A
        // section with media we cannot take (H.264) is worth a warning.
        for (index, stream) in negotiated.enumerated() where !stream.isAccepted && stream.kind != .data {
            let section = description.media[index]
            guard !section.isRejected, section.direction == "sendonly" || section.direction == "sendrecv" else { continue }
            warnings.append("mid \(stream.mid): \(stream.rejection ?? "rejected")")
        }
        let router = self.router
        let finalRoutes = routes
        try await loop.submit { router.update(routes: finalRoutes) }
        reportTracks(routes)
        guard let subscriber else { return }
        try await subscriber.start(answer: answer.text)
    }

    private func reportTracks(_ routes: [SubscriptionRouter.Route]) {
        let current = Set(routes.map { TrackKey(participantID: $0.participantID, kind: $0.kind) })
        for route in routes where !tracks.contains(TrackKey(participantID: route.participantID, kind: route.kind)) {
            sink(.trackAdded(participantID: route.participantID, kind: route.kind, codec: route.codec))
        }
        for gone in tracks.subtracting(current) where announced[gone.participantID] != nil {
            sink(.trackRemoved(participantID: gone.participantID, kind: gone.kind))
        }
        tracks = current
    }

    private func peerConnection() throws -> PeerConnection {
        if let peer { return peer }
        let router = self.router
        let sink = self.sink
        let handlers = PeerConnection.Handlers(
            onRTP: { header, packet in router.handleRTP(header, packet) },
            onRTCP: { packets in router.handleRTCP(packets) },
            onDataChannel: { event in
                if case .message(let message) = event { sink(.data(participantID: nil, payload: message.payload, at: Date())) }
            })
        let peer = try PeerConnection(loop: loop, localAddresses: configuration.iceAddresses, handlers: handlers)
        self.peer = peer
        if let ticker { loop.execute { ticker.peer = peer } }
        return peer
    }

    // MARK: Timers

    /// Stream timers (NACK, PLI/FIR, receiver reports) and statistics run on the transport
    /// loop from a GLib timeout: no task or actor hop per tick.
    private func startTimers() {
        let ticker = StreamTicker(router: router, sink: sink, statisticsEvery: max(1, Int(configuration.statisticsInterval / configuration.tickInterval)))
        self.ticker = ticker
        timer = loop.scheduleRepeating(every: configuration.tickInterval) { ticker.fire() }
    }

    /// Uses `token` for every later request (token renewal), without reconnecting.
    public func setToken(_ token: String?) async {
        await connection.setToken(token)
    }

    /// Statistics of the transport, for tests and diagnostics.
    public func transportCounters() async throws -> PeerConnection.Counters? {
        guard let peer else { return nil }
        return try await loop.submit { peer.counters }
    }
}

/// Runs the router's timers on the transport loop and sends the RTCP they produce.
private final class StreamTicker: @unchecked Sendable {
    // @unchecked Sendable: `peer` and `count` are touched only on the transport loop (fire()
    // runs from the loop's timer; peer is set through loop.execute).
    let router: SubscriptionRouter
    let sink: @Sendable (RoomEvent) -> Void
    let statisticsEvery: Int
    var peer: PeerConnection?
    private var count = 0

    init(router: SubscriptionRouter, sink: @escaping @Sendable (RoomEvent) -> Void, statisticsEvery: Int) {
        self.router = router
        self.sink = sink
        self.statisticsEvery = statisticsEvery
    }

    func fire() {
        count += 1
        for datagram in router.tick() { try? peer?.sendRTCP(bytes: datagram) }
        guard count % statisticsEvery == 0 else { return }
        reportStatistics()
    }

    /// Sends every track's statistics to the sink now.
    func reportStatistics() {
        for (route, statistics) in router.statistics() {
            sink(.statistics(participantID: route.participantID, kind: route.kind, statistics))
        }
    }
}
