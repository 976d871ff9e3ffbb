import Foundation

/// One room on one server, joined through an ``AgentEngine``: as an unseen audience member, or
/// as a host that publishes (and by default listens to the others).
///
/// ```swift
/// let engine = AgentEngine()
/// let channel = try await engine.join(RoomJoin(endpoint: .janus(server: url, room: "demo"), display: "agent",
///                                              iceAddresses: addresses),
///                                     credentials: RoomCredentials(token: token))
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
///
/// The platform is behind ``RoomSession``: the channel holds one session for its listener (an
/// audience channel, or a host that ``HostOptions/listens``) and one for its host, made by a
/// ``RoomPlatform`` from ``join``, and names no platform type.
public actor Channel {
    /// Where and how the channel joined (no secrets: those stay in the channel).
    public nonisolated let join: RoomJoin
    /// ``RoomJoin/server``: the signaling URL.
    public nonisolated var server: String { join.server }
    /// The room's name (``RoomJoin/room``; empty for an endpoint without one).
    public nonisolated var room: String { join.room ?? "" }
    public nonisolated let options: ChannelOptions
    /// The transport loop the channel's connections live on (and a host's media is sent on).
    public nonisolated let loop: EventLoop
    public nonisolated let events: AsyncStream<ChannelEvent>
    nonisolated let key: ChannelKey
    private nonisolated let core: ChannelCore
    private let platform: RoomPlatform
    private var credentials: RoomCredentials
    /// The unseen participant that hears the room: an audience channel's only session, a
    /// listening host's second one.
    private var listener: (any RoomSession)?
    /// A host's publishing session.
    private var host: (any RoomSession)?
    private var published: RoomPublication?
    private var statisticsTimer: LoopTimer?
    /// Evaluates the active speakers (with ``ChannelOptions/detectsActiveSpeakers``).
    private var speakersTimer: LoopTimer?
    private var tokenWarning: Task<Void, Never>?
    private var delegateTask: Task<Void, Never>?
    private var closed = false

    init(join: RoomJoin, credentials: RoomCredentials, key: ChannelKey, options: ChannelOptions, loop: EventLoop,
         platform: RoomPlatform = .standard, renderProcessor: AudioProcessorFactory? = nil) {
        self.join = join
        self.key = key
        self.credentials = credentials
        self.options = options
        self.loop = loop
        self.platform = platform
        let buffer = EventBuffer<ChannelEvent>()
        events = buffer.stream
        core = ChannelCore(room: join.room ?? "", statsInterval: options.statsInterval, rawSink: options.roomEventSink, events: buffer,
                           speakers: options.detectsActiveSpeakers ? ChannelSpeakers() : nil, renderProcessor: renderProcessor)
    }

    deinit {
        core.finish()
    }

    /// Where the channel stands; nil only before ``AgentEngine/join(_:credentials:options:)`` starts it.
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
    public var publishedTracks: [TrackOffer] { published?.tracks ?? [] }

    // MARK: Joining and leaving (through the engine)

    /// Connects and joins; on failure everything opened is closed again and the events end with
    /// `disconnected`.
    func open() async throws(AgentError) {
        core.transition(to: .connecting)
        do throws(AgentError) {
            try await checkRelay()
            switch join.role {
            case .audience:
                try await startListener(join)
            case .host:
                try await startHost()
            }
        } catch {
            await stopSources()
            core.transition(to: .disconnected(reason: error.isRefusal ? .refused(error.description) : .gaveUp(error.description)))
            throw error
        }
        core.transition(to: .connected)
        startStatistics()
        armTokenWarning()
    }

    /// Under the relay policy, allocates on the TURN servers once before joining (and releases
    /// it): an audience makes its media connection only when a publisher's offer comes, so a
    /// refused credential would show late, as a drop retried for minutes. Now it ends the join
    /// with ``AgentError/relayUnavailable(_:)``.
    private func checkRelay() async throws(AgentError) {
        guard join.ice.policy == .relay else { return }
        do {
            _ = try await ICEAgent.relayCandidates(
                loop: loop, ice: join.ice, serverCredentials: credentials.iceServer, timeout: join.timeouts.connect)
        } catch {
            throw AgentError(error)
        }
    }

    /// A session for `join` on the channel's loop, reporting into the channel's event path.
    private func makeSession(_ join: RoomJoin) throws(AgentError) -> any RoomSession {
        let core = self.core
        let context = RoomSessionContext(
            loop: loop, tickInterval: options.tickInterval, statisticsInterval: options.statsInterval, packetTap: options.packetTap,
            events: { event in
                switch event {
                case .room(let roomEvent): core.receive(roomEvent)
                }
            })
        return try platform.session(for: join, credentials: credentials, context: context)
    }

    /// Joins as the unseen participant that announces the roster and receives the tracks.
    private func startListener(_ join: RoomJoin) async throws(AgentError) {
        var join = join
        join.ignoredParticipantIDs.formUnion(options.ignoredParticipantIDs)
        let listener = try makeSession(join)
        guard listener.capabilities.contains(.roster) else {
            throw AgentError.unsupported("an audience channel on a platform without a roster")
        }
        self.listener = listener
        core.setKeyframeRequester { [weak listener] id, kind in listener?.requestKeyframe(participantID: id, kind: kind) }
        try await listener.connect()
    }

    private func startHost() async throws(AgentError) {
        guard !options.host.tracks.isEmpty || options.host.dataChannel else { throw AgentError.nothingToPublish }
        let host = try makeSession(join)
        guard host.capabilities.contains(.publish) else { throw AgentError.unsupported("a host channel on a platform that cannot publish") }
        // Refused before anything is sent: a listener needs a roster, and a silent host that
        // was asked to listen would look like an empty room.
        if options.host.listens, !host.capabilities.contains(.roster) {
            throw AgentError.unsupported("a listening host on a platform without a roster (set listens to false)")
        }
        self.host = host
        try await host.connect()
        let published = try await host.publish(tracks: options.host.tracks, dataChannel: options.host.dataChannel)
        self.published = published
        core.setPublishing(published.session, tracks: published.tracks)
        guard options.host.listens else { return }
        // The host created the room if it had to; the listener joins what is there, and ignores
        // our own publisher, whose media we have.
        var listening = join
        listening.role = .audience
        listening.create = false
        listening.ignoredParticipantIDs = [published.publisherID]
        try await startListener(listening)
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
        speakersTimer?.cancel()
        speakersTimer = nil
        tokenWarning?.cancel()
        tokenWarning = nil
        await listener?.teardown()
        listener = nil
        await host?.teardown()
        host = nil
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
        credentials.token = token
        await listener?.updateCredentials(credentials)
        await host?.updateCredentials(credentials)
        armTokenWarning()
    }

    /// Warns ``RoomTimeouts/tokenExpiryLead`` before the token expires, when the platform can
    /// tell when that is.
    private func armTokenWarning() {
        tokenWarning?.cancel()
        tokenWarning = nil
        guard let session = host ?? listener, let expiry = session.tokenExpiry(of: credentials) else { return }
        let delay = TokenExpiryWarning.delay(until: expiry, lead: join.timeouts.tokenExpiryLead, now: Date())
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
        if core.speakers != nil {
            speakersTimer = loop.scheduleRepeating(every: .milliseconds(50)) { core.evaluateSpeakers() }
        }
    }

    /// Asks the sender of a participant's track for a keyframe (PLI, then FIR while none comes),
    /// through the session that hears the room: what a recorder cutting a file at a keyframe
    /// wants. A no-op for a channel that hears no one or a participant not subscribed.
    public func requestKeyframe(participantID: String, kind: MediaKind = .video) {
        listener?.requestKeyframe(participantID: participantID, kind: kind)
    }

    /// Sends a data message to everyone subscribed to the host's data.
    /// - Throws: ``AgentError/notHost``, ``AgentError/channelClosed``, ``AgentError/dataChannelUnavailable``.
    public func send(_ payload: DataChannelMessage.Payload) async throws {
        guard join.role == .host else { throw AgentError.notHost }
        guard !closed, let host else { throw AgentError.channelClosed }
        try await host.send(payload)
    }

    public func send(text: String) async throws { try await send(.text(text)) }

    /// A host's send-side counters per published track (by mid); empty for an audience channel.
    /// The candidate pair ICE selected for a host's published media (through a TURN relay when
    /// its local end is `relay`); nil for an audience, or before the media connection is up.
    /// An audience's pairs come as ``RoomEvent/iceSelectedPair(_:at:)`` on the raw event sink.
    public func publishingPath() async -> ICESelectedPair? {
        guard let peer = published?.session.peer else { return nil }
        return try? await loop.submit { peer.selectedPair }
    }

    public func sendStatistics() async -> [String: SendStreamStatistics] {
        await host?.sendStatistics() ?? [:]
    }
}
