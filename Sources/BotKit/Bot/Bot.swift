import Agent
import Foundation

/// A participant that talks: it joins a Janus VideoRoom as a publisher everyone sees, publishes
/// live tracks and/or files, sends data messages, and (when it ``BotConfiguration/listens``)
/// hears the others' data and sees them come and go.
///
/// ```swift
/// let tone = try AudioTrack(configuration: .init())
/// let bot = Bot(configuration: .init(server: url, room: "demo", display: "bot", iceAddresses: addresses))
/// try await bot.start(BotMedia(audioTrack: tone))
/// try await tone.push(samples, sampleRate: 16_000, channels: 1)
/// try await bot.send(text: "hello")
/// for await event in bot.events { ... }
/// await bot.stop()
/// ```
///
/// The room side is a host ``Channel`` of an ``AgentEngine`` (the bot's own, or one shared with
/// other channels): it publishes, and its listener hears the others. The bot adds the media:
/// pulled audio and file frames are paced on the channel's transport loop by a 10 ms timer
/// against one absolute clock; pushed video is handed to the loop as it is encoded.
/// Janus differences: a publisher's handle gets no data, so hearing others needs a second,
/// unseen subscriber participant (what `listens` adds), and relayed data does not say who sent it.
public actor Bot {
    public nonisolated let events: AsyncStream<BotEvent>
    public let configuration: BotConfiguration
    /// Where ``events`` wait for their consumer: lifecycle and roster kept, statistics coalesced.
    private let eventBuffer: EventBuffer<BotEvent>
    /// The event counts of channels the bot has left (it gets a new one on each rejoin).
    private var retiredEventCounts = EventBufferCounts()
    private let engine: AgentEngine
    private let ownsEngine: Bool
    /// Joins, rejoins after a drop and gives up, as its ``LinkStateMachine`` decides
    /// (Bot+LinkDriverTarget.swift); a link is one host channel.
    let driver: LinkDriver
    var channel: Channel?
    /// The driver's number of ``channel``'s link.
    var channelLink = 0
    /// What the current channel publishes on, and as whom.
    var publishing: PublishSession?
    var publisherID: String?
    var pacing: BotPacing?
    var forwarding: Task<Void, Never>?
    var options: ChannelOptions?
    /// Whether the bot was in the room once: the end of a bot whose start failed is told by
    /// ``start(_:)``'s error, not by ``BotEvent/connectionLost(_:)``.
    var wasConnected = false
    private var started = false
    /// What the publisher had sent when it stopped, so summaries can be read after ``stop()``.
    private var finalStatistics: [MediaKind: SendStreamStatistics] = [:]
    private var finalPublishingPath: ICESelectedPair?
    private var finalProgress = PlaybackProgress()
    var stopped = false

    /// How often the pacing timer runs; audio goes out in 20 ms frames, so 10 ms keeps each
    /// within 10 ms of its time.
    static let pacingInterval = Duration.milliseconds(10)

    /// A bot with an engine (and transport loop) of its own.
    public init(configuration: BotConfiguration) {
        self.init(configuration: configuration, engine: AgentEngine(loopCount: 1, loopName: "agentd.bot"), ownsEngine: true)
    }

    /// A bot that joins through `engine`, beside the engine's other channels. ``stop()`` leaves
    /// the bot's channel and keeps the engine running.
    public init(configuration: BotConfiguration, engine: AgentEngine) {
        self.init(configuration: configuration, engine: engine, ownsEngine: false)
    }

    private init(configuration: BotConfiguration, engine: AgentEngine, ownsEngine: Bool) {
        self.configuration = configuration
        self.engine = engine
        self.ownsEngine = ownsEngine
        eventBuffer = EventBuffer<BotEvent>()
        events = eventBuffer.stream
        driver = LinkDriver(configuration: Self.linkConfiguration(configuration.join))
        driver.bind(self)
    }

    /// Joins the room, publishes `media` and returns once the media flows.
    /// - Throws: ``BotError`` (bad media, already started), ``AudioTrackError/processor(_:)`` (the
    ///   engine's default capture processing cannot run on the audio track), or ``AgentError`` (codec refused, no
    ///   media connection, no such room, wrong pin, bad token, server unreachable).
    public func start(_ media: sending BotMedia) async throws {
        guard !started else { throw BotError.alreadyStarted }
        started = true
        let tracks = try media.tracks()
        if let capture = engine.audioProcessing.capture { try media.audioTrack?.adoptDefaultProcessor(capture) }
        let options = ChannelOptions(
            host: HostOptions(tracks: tracks, dataChannel: media.dataChannel, listens: configuration.listens),
            statsInterval: configuration.statsInterval)
        self.options = options
        do {
            // The first link; its publishing starts here, a rejoin's switches over in buildLink.
            try await driver.start()
            guard let publishing, let publisherID else { throw AgentError.mediaFailed("the channel has no publishing session") }
            let eventBuffer = self.eventBuffer
            // The tracks as the room took them: the codec it chose where we offered several.
            let published = await channel?.publishedTracks ?? tracks
            pacing = try await BotPacing.start(
                media, publishing: publishing, tracks: published, pacingInterval: Self.pacingInterval, emit: { eventBuffer.yield($0) })
            emit(.connected(publisherID: publisherID))
        } catch {
            await stop()
            throw error
        }
    }

    /// Puts a bot event on ``events``.
    func emit(_ event: BotEvent) {
        eventBuffer.yield(event)
    }

    /// Joins as a host, as link `link`, and forwards the channel's events; the channel becomes
    /// the bot's. How the channel ends goes to the driver.
    func join(_ options: ChannelOptions, link: Int) async throws {
        let channel = try await engine.join(configuration.join, credentials: configuration.credentials, options: options)
        self.channel = channel
        channelLink = link
        let eventBuffer = self.eventBuffer, driver = self.driver
        forwarding = Self.forward(channel.events, emit: { eventBuffer.yield(Self.addingCounts(of: eventBuffer, to: $0)) }, ended: { reason in
            switch reason {
            case .left: break
            case .gaveUp(let why): driver.send(.linkLost(generation: link, reason: why))
            case .refused(let why): driver.send(.refused(generation: link, reason: why))
            case .roomDestroyed: driver.send(.roomDestroyed(generation: link))
            }
        })
        guard let publishing = await channel.publishSession, let publisherID = await channel.localUserID else {
            throw AgentError.mediaFailed("the channel has no publishing session")
        }
        self.publishing = publishing
        self.publisherID = publisherID
    }

    /// Leaves `channel`, keeping its event counts for ``eventCounts()``.
    func leave(_ channel: Channel) async {
        await engine.leave(channel)
        retiredEventCounts = retiredEventCounts + channel.eventCounts
    }

    /// What ``events`` and the bot's channels' streams coalesced or dropped because a consumer was
    /// behind, over the bot's life (also in each ``BotEvent/statistics(_:)``, for the current channel).
    public func eventCounts() -> EventBufferCounts {
        retiredEventCounts + (channel?.eventCounts ?? EventBufferCounts()) + eventBuffer.counts
    }

    /// Sends a data message to everyone subscribed to the bot's data.
    /// - Throws: ``BotError/dataChannelUnavailable`` also while the bot is rejoining.
    public func send(_ payload: DataChannelMessage.Payload) async throws {
        switch driver.state {
        case .waiting, .rejoining: throw BotError.dataChannelUnavailable
        default: break
        }
        guard let channel else { throw BotError.notStarted }
        do {
            try await channel.send(payload)
        } catch AgentError.dataChannelUnavailable {
            throw BotError.dataChannelUnavailable
        }
    }

    public func send(text: String) async throws { try await send(.text(text)) }
    public func send(binary: [UInt8]) async throws { try await send(.binary(binary)) }

    /// Send-side counters per published kind (packets, bytes, NACKs answered, keyframe requests).
    public func sendStatistics() async -> [MediaKind: SendStreamStatistics] {
        guard let channel else { return finalStatistics }
        let byMid = await channel.sendStatistics()
        var result: [MediaKind: SendStreamStatistics] = [:]
        for track in await channel.publishedTracks {
            if let statistics = byMid[track.mid] { result[track.kind] = statistics }
        }
        return result
    }

    /// The candidate pair ICE selected for the published media (its local end `relay`: through
    /// a TURN server); nil before the media connection is up. After ``stop()``, the last one.
    public func publishingPath() async -> ICESelectedPair? {
        guard let channel else { return finalPublishingPath }
        return await channel.publishingPath()
    }

    /// Frames sent from the playlist, passes started, and frames that went out late because their
    /// worker lane had not encoded or read them in time (for summaries).
    public func playbackProgress() async -> PlaybackProgress {
        guard let pacing else { return finalProgress }
        return await pacing.progress()
    }

    /// Stops publishing, leaves the room and ends ``events``. Idempotent.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        // Waits for a rejoin in flight; the channel the bot ends on stays for the figures below.
        await driver.stop()
        if let pacing {
            finalProgress = await pacing.progress()
            await pacing.stop()
        }
        pacing = nil
        if let channel {
            finalStatistics = await sendStatistics()
            finalPublishingPath = await channel.publishingPath()
            await leave(channel)
        }
        channel = nil
        if ownsEngine { await engine.shutdown() }
        // The channel's events end with its leaving: pass on what came before, then stop.
        await forwarding?.value
        forwarding = nil
        eventBuffer.yield(.stopped)
        eventBuffer.finish()
    }

    /// Passes the channel's roster, data and statistics on as bot events, and how the channel
    /// ended to `ended` (the driver's machine makes the connection events of it).
    private static func forward(
        _ events: AsyncStream<ChannelEvent>, emit: @escaping @Sendable (BotEvent) -> Void,
        ended: @escaping @Sendable (DisconnectReason) -> Void
    ) -> Task<Void, Never> {
        Task {
            for await event in events {
                switch event {
                case .userJoined(let user): emit(.participantJoined(id: user.id, display: user.display))
                case .userLeft(let user): emit(.participantLeft(id: user.id))
                case .trackSubscribed(let user, let track): emit(.trackSubscribed(participantID: user.id, display: user.display, track: track))
                case .dataReceived(let from, let payload): emit(.dataReceived(from: from?.id, payload: payload))
                case .statsReport(let report): emit(.statistics(report))
                case .eventsLost(let count): emit(.eventsLost(count: count))
                case .connectionStateChanged(.disconnected(let reason)): ended(reason)
                default: break
                }
            }
        }
    }

    /// A statistics report carries the bot's own stream's counts beside its channel's.
    private static func addingCounts(of buffer: EventBuffer<BotEvent>, to event: BotEvent) -> BotEvent {
        guard case .statistics(var report) = event else { return event }
        report.events = report.events + buffer.counts
        return .statistics(report)
    }
}
