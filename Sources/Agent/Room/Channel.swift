import Foundation

/// One room on one server, joined through an ``AgentEngine``: as an unseen audience member, or
/// as a host that publishes (and by default listens to the others).
///
/// ```swift
/// let engine = AgentEngine()
/// let channel = try await engine.join(server: url, room: "demo", token: token,
///                                     options: ChannelOptions(display: "agent", iceAddresses: addresses))
/// for await event in channel.events {
///     switch event {
///     case .userJoined(let user): print("\(user) joined")
///     case .trackSubscribed(let user, let track): print("\(user) sends \(track)")
///     case .tokenWillExpire: await channel.renewToken(try await fetchToken())
///     case .statsReport(let report): print(report.statsString)
///     default: break
///     }
/// }
/// ```
///
/// Events come in order on ``events`` (see ``ChannelEvent``), or to a ``ChannelDelegate`` (see
/// ``setDelegate(_:)``). Media frames do not go through events: attach sinks to the
/// ``RemoteTrack`` of ``ChannelEvent/trackSubscribed(_:_:)`` (``RemoteAudioSink`` for PCM,
/// ``RemoteVideoSink`` for I420, ``RemoteTrackEncodedSink`` for encoded frames); they are fed
/// off the transport loop, on a lane of ``WorkerLanes/shared`` per track, in frame order (see
/// ``RemoteTrack``). A recorder takes every ``RoomEvent``, frames included, from
/// ``ChannelOptions/roomEventSink`` (on the transport loop: it must only enqueue).
public actor Channel {
    public nonisolated let server: String
    public nonisolated let room: String
    public nonisolated let options: ChannelOptions
    /// The transport loop the channel's connections live on (and a host's media is sent on).
    public nonisolated let loop: EventLoop
    public nonisolated let events: AsyncStream<ChannelEvent>
    nonisolated let key: ChannelKey
    private nonisolated let core: ChannelCore
    private var token: String?
    private var audience: JanusAudience?
    private var publisher: JanusPublisher?
    private var published: JanusPublisher.Published?
    private var statisticsTimer: LoopTimer?
    private var tokenWarning: Task<Void, Never>?
    private var delegateTask: Task<Void, Never>?
    private var closed = false

    init(server: String, room: String, key: ChannelKey, token: String?, options: ChannelOptions, loop: EventLoop) {
        self.server = server
        self.room = room
        self.key = key
        self.token = token
        self.options = options
        self.loop = loop
        let buffer = EventBuffer<ChannelEvent>()
        events = buffer.stream
        core = ChannelCore(room: room, statsInterval: options.statsInterval, rawSink: options.roomEventSink, events: buffer)
    }

    deinit {
        core.finish()
    }

    /// Where the channel stands; nil only before ``AgentEngine/join(server:room:token:options:)`` starts it.
    public nonisolated var connectionState: ConnectionState? { core.connectionState }

    /// The others in the room, in the order they came (as ``events`` announced them).
    public nonisolated var users: [User] { core.users }

    /// What ``events`` (and a delegate's stream) coalesced or dropped because their consumer was
    /// behind; each ``ChannelEvent/statsReport(_:)`` carries the same figures.
    public nonisolated var eventCounts: EventBufferCounts { core.eventCounts }

    /// A host's own participant id in the room; nil for an audience channel.
    public var localUserID: String? { published?.publisherID }

    /// A host's publishing session: send encoded frames with
    /// ``PublishSession/send(frame:mid:rtpTimestamp:isKeyframe:)`` on ``loop``, set its
    /// keyframe-request and reception-report handlers there. Nil for an audience channel.
    public var publishSession: PublishSession? { published?.session }

    /// The tracks a host publishes, with the mids ``publishSession`` knows them by.
    public var publishedTracks: [OfferBuilder.Track] { published?.tracks ?? [] }

    // MARK: Joining and leaving (through the engine)

    /// Connects and joins; on failure everything opened is closed again and the events end with
    /// `disconnected`.
    func open() async throws {
        core.transition(to: .connecting)
        do {
            switch options.role {
            case .audience:
                try await startAudience(ignoring: [], create: options.create)
            case .host:
                try await startHost()
            }
        } catch {
            let failure = AgentError.fromJanus(error, server: server, room: room, token: token)
            await stopSources()
            core.transition(to: .disconnected(reason: failure.isRefusal ? .refused(failure.description) : .gaveUp(failure.description)))
            throw failure
        }
        core.transition(to: .connected)
        startStatistics()
        armTokenWarning()
    }

    private func startAudience(ignoring ignored: Set<String>, create: Bool) async throws {
        var configuration = JanusAudience.Configuration(
            server: server, room: room, display: options.display, token: token, pin: options.pin, create: create,
            iceAddresses: options.iceAddresses, statisticsInterval: options.statsInterval)
        configuration.ignoredPublisherIDs = ignored
        let core = self.core
        let audience = JanusAudience(configuration: configuration, loop: loop) { core.receive($0) }
        self.audience = audience
        core.setKeyframeRequester { [weak audience] id, kind in audience?.requestKeyframe(participantID: id, kind: kind) }
        try await audience.start()
    }

    private func startHost() async throws {
        guard !options.host.tracks.isEmpty || options.host.dataChannel else { throw AgentError.nothingToPublish }
        let core = self.core
        let publisher = JanusPublisher(
            configuration: .init(
                server: server, room: room, display: options.display, token: token, pin: options.pin, create: options.create,
                iceAddresses: options.iceAddresses, connectTimeout: options.connectTimeout),
            loop: loop, sink: { core.receive($0) })
        self.publisher = publisher
        let published = try await publisher.start(tracks: options.host.tracks, dataChannel: options.host.dataChannel)
        self.published = published
        core.setPublishing(published.session, tracks: published.tracks)
        // The publisher created the room if it had to; the listener joins what is there.
        if options.host.listens { try await startAudience(ignoring: [published.publisherID], create: false) }
    }

    /// Leaves the room: stops the sources, reports `disconnected(.left)` and ends ``events``.
    /// Idempotent; tolerates a dead server.
    func close() async {
        guard !closed else { return }
        closed = true
        await stopSources()
        core.transition(to: .disconnected(reason: .left))
        core.finish()
    }

    private func stopSources() async {
        statisticsTimer?.cancel()
        statisticsTimer = nil
        tokenWarning?.cancel()
        tokenWarning = nil
        await audience?.stop()
        audience = nil
        await publisher?.stop()
        publisher = nil
        published = nil
    }

    // MARK: Delegate

    /// Calls `delegate` with the channel's events from now on, in order, one call at a time
    /// (the same events ``events`` yields; the two do not compete). The channel holds the
    /// delegate weakly; nil, or a delegate that went away, stops the calls.
    public func setDelegate(_ delegate: (any ChannelDelegate)?) {
        delegateTask?.cancel()
        delegateTask = nil
        guard let delegate else { return }
        let stream = core.subscribe()
        delegateTask = Task { [weak self, weak delegate] in
            for await event in stream {
                guard let channel = self, let delegate else { return }
                await delegate.dispatch(event, from: channel)
            }
        }
    }

    // MARK: Tokens

    /// Uses `token` for every later request on the channel's connections, without reconnecting,
    /// and arms ``ChannelEvent/tokenWillExpire(expiresAt:)`` for it.
    public func renewToken(_ token: String) async {
        guard !closed else { return }
        self.token = token
        await audience?.updateToken(token)
        await publisher?.setToken(token)
        armTokenWarning()
    }

    private func armTokenWarning() {
        tokenWarning?.cancel()
        tokenWarning = nil
        guard let token else { return }
        let parsed = JanusToken(token)
        guard let expiry = parsed.expiry, let delay = parsed.warningDelay(lead: options.tokenExpiryLead, now: Date()) else { return }
        let core = self.core
        tokenWarning = Task {
            if delay > .zero {
                do { try await Task.sleep(for: delay) } catch { return }
            }
            core.emit(.tokenWillExpire(expiresAt: expiry))
        }
    }

    // MARK: Statistics and data

    private func startStatistics() {
        let core = self.core
        statisticsTimer = loop.scheduleRepeating(every: options.statsInterval) { core.reportStatistics() }
    }

    /// Sends a data message to everyone subscribed to the host's data.
    /// - Throws: ``AgentError/notHost``, ``AgentError/channelClosed``, ``AgentError/dataChannelUnavailable``.
    public func send(_ payload: DataChannelMessage.Payload) async throws {
        guard options.role == .host else { throw AgentError.notHost }
        guard !closed, let publisher else { throw AgentError.channelClosed }
        do {
            try await publisher.send(payload)
        } catch {
            throw AgentError.fromJanus(error, server: server, room: room, token: token)
        }
    }

    public func send(text: String) async throws { try await send(.text(text)) }

    /// A host's send-side counters per published track (by mid); empty for an audience channel.
    public func sendStatistics() async -> [String: SendStreamStatistics] {
        await publisher?.statistics() ?? [:]
    }
}
