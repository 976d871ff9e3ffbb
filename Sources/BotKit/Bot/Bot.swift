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
/// Media runs on the bot's own transport loop: pulled audio and file frames are paced there by
/// a 10 ms timer against one absolute clock; pushed video is handed to the loop as it is encoded.
/// Janus differences: a publisher's handle gets no data, so hearing others needs a second,
/// unseen subscriber participant (what `listens` adds), and relayed data does not say who sent it.
public actor Bot {
    public nonisolated let events: AsyncStream<BotEvent>
    public let configuration: BotConfiguration
    public nonisolated let loop: EventLoop
    private let continuation: AsyncStream<BotEvent>.Continuation
    private var publisher: BotPublisher?
    private var audience: JanusAudience?
    private var started = false
    /// What the publisher had sent when it stopped, so summaries can be read after ``stop()``.
    private var finalStatistics: [TrackKind: SendStreamStatistics] = [:]
    private var finalProgress = (frames: 0, passes: 0)
    private var stopped = false

    /// How often the pacing timer runs; audio goes out in 20 ms frames, so 10 ms keeps each
    /// within 10 ms of its time.
    static let pacingInterval = Duration.milliseconds(10)

    public init(configuration: BotConfiguration) {
        self.configuration = configuration
        loop = EventLoop(name: "agentd.bot")
        (events, continuation) = AsyncStream<BotEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    /// Joins the room, publishes `media` and returns once the media flows.
    /// - Throws: ``BotError`` (codec refused, no connection, bad media) or ``JanusError`` (no
    ///   such room 426, wrong pin 433, bad token 403, server unreachable).
    public func start(_ media: sending BotMedia) async throws {
        guard !started else { throw BotError.alreadyStarted }
        started = true
        let tracks = try BotPublisher.tracks(for: media)
        let continuation = self.continuation
        let emit: @Sendable (BotEvent) -> Void = { continuation.yield($0) }
        let publisher = BotPublisher(configuration: configuration, loop: loop, emit: emit)
        self.publisher = publisher
        do {
            let publisherID = try await publisher.start(media: media, tracks: tracks, pacingInterval: Self.pacingInterval)
            if configuration.listens { try await listen(ignoring: publisherID, emit: emit) }
            emit(.connected(publisherID: publisherID))
        } catch {
            await stop()
            throw error
        }
    }

    /// Sends a data message to everyone subscribed to the bot's data.
    public func send(_ payload: DataChannelMessage.Payload) async throws {
        guard let publisher else { throw BotError.notStarted }
        try await publisher.send(payload)
    }

    public func send(text: String) async throws { try await send(.text(text)) }
    public func send(binary: [UInt8]) async throws { try await send(.binary(binary)) }

    /// Send-side counters per published kind (packets, bytes, NACKs answered, keyframe requests).
    public func sendStatistics() async -> [TrackKind: SendStreamStatistics] {
        guard let publisher else { return finalStatistics }
        return await publisher.statistics()
    }

    /// Frames sent from the playlist and passes started (for summaries).
    public func playbackProgress() async -> (frames: Int, passes: Int) {
        guard let publisher else { return finalProgress }
        return await publisher.playbackProgress()
    }

    /// Stops publishing, leaves the room and ends ``events``. Idempotent.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        await audience?.stop()
        audience = nil
        if let publisher {
            finalStatistics = await publisher.statistics()
            finalProgress = await publisher.playbackProgress()
            await publisher.stop()
        }
        publisher = nil
        loop.shutdown()
        continuation.yield(.stopped)
        continuation.finish()
    }

    /// A second, unseen participant that subscribes to the others (not to us), for their data
    /// and the roster.
    private func listen(ignoring publisherID: String, emit: @escaping @Sendable (BotEvent) -> Void) async throws {
        var listener = JanusAudience.Configuration(
            server: configuration.server, room: configuration.room, display: configuration.display, token: configuration.token,
            pin: configuration.pin, iceAddresses: configuration.iceAddresses, statisticsInterval: .seconds(3600))
        listener.ignoredPublisherIDs = [publisherID]
        let audience = JanusAudience(configuration: listener, loop: loop) { event in
            switch event {
            case .participantJoined(let id, let display, _): emit(.participantJoined(id: id, display: display))
            case .participantLeft(let id, _): emit(.participantLeft(id: id))
            case .data(let from, let payload, _): emit(.dataReceived(from: from, payload: payload))
            default: break
            }
        }
        self.audience = audience
        try await audience.start()
    }
}
