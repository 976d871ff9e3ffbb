import Agent
import AgentdCore
import BotKit
import Foundation
import Recorder

/// `--notice`: the participant that tells the room it is being recorded (``RecordingNotice``),
/// a BotKit ``Bot`` under the recording's display name. The recorder itself stays an audience
/// that ignores it, so it never records its own notices.
///
/// - `data`: `{"type":"recorder","active":true,...}` at once and every ``repeatInterval``
///   (Janus relays a message only to those subscribed when it is sent, so someone who joins
///   later hears the next one), and `"active":false` with `stopped_by` at the end.
/// - `speech`: "Recording started." after the join and "Recording stopped." at the end, spoken
///   with espeak-ng on an audio track; the end waits (at most ``finalDeadline``) until it went out.
///
///     {"type":"recorder","active":true,"room":"demo","recorder":"agentd-recorder","started_at":"2026-12-04T18:00:00.000Z","seq":1}
///     {"type":"recorder","active":false,"room":"demo","recorder":"agentd-recorder","started_at":"…","seq":9,"stopped_by":"idle"}
final class RecorderAnnouncer: Sendable {
    static let repeatInterval: Duration = .seconds(2)
    /// How often a send is tried again while the data channel is not open yet.
    static let retryInterval: Duration = .milliseconds(100)
    /// How long the end may take: the last message, and the last line spoken.
    static let finalDeadline: Duration = .seconds(8)
    static let startLine = "Recording started."
    static let stopLine = "Recording stopped."

    let notice: RecordingNotice
    /// The announcer's publisher id: the recorder's audience ignores it.
    let publisherID: String
    private let bot: Bot
    private let speaker: Speaker?
    private let track: AudioTrack?
    private let fields: [String: JSONValue]
    private let sequence = Shared(0)
    private let ticker = Shared<Task<Void, Never>?>(nil)
    private let drain: Task<Void, Never>

    private init(notice: RecordingNotice, publisherID: String, bot: Bot, speaker: Speaker?, track: AudioTrack?,
                 request: RecordingRequest, drain: Task<Void, Never>) {
        self.notice = notice
        self.publisherID = publisherID
        self.bot = bot
        self.speaker = speaker
        self.track = track
        self.drain = drain
        fields = [
            "type": "recorder", "room": .string(request.room), "recorder": .string(request.display),
            "started_at": .string(RecordingManifest.formatDate(request.startedAt)),
        ]
    }

    /// Joins as a host (creating the room when the request says so) and waits until it publishes.
    /// - Throws: ``CommandFailure``: espeak-ng missing for speech (1), the room's refusal (3) or
    ///   unreachability (4), as for the recording's own join.
    static func start(_ notice: RecordingNotice, request: RecordingRequest, ice: RoomJoinPatch, engine: AgentEngine,
                      environment: [String: String] = ProcessInfo.processInfo.environment) async throws(CommandFailure) -> RecorderAnnouncer {
        var synthesizer: SpeechSynthesizer?
        if notice.speaks {
            do {
                synthesizer = SpeechSynthesizer(executable: try SpeechSynthesizer.locate(environment: environment), voice: "en", wordsPerMinute: 160)
            } catch {
                throw CommandFailure(.failure, "--notice \(notice.rawValue) needs espeak-ng: \(error)", hint: "apt-get install espeak-ng")
            }
        }
        var join = ice.applied(to: request.join)
        join.role = .host
        let bot = Bot(configuration: BotConfiguration(join: join, credentials: ice.applied(to: request.credentials), listens: false), engine: engine)
        let (connected, connection) = AsyncStream<String>.makeStream()
        let drain = Task {
            for await event in bot.events {
                if case .connected(let id) = event { connection.yield(id) }
            }
            connection.finish()
        }
        do {
            let track = notice.speaks ? try AudioTrack(configuration: .init(application: .voip)) : nil
            try await bot.start(BotMedia(audioTrack: track, dataChannel: notice.sendsData))
            var ids = connected.makeAsyncIterator()
            guard let publisherID = await ids.next() else { throw AgentError.mediaFailed("the announcer never published") }
            var speaker: Speaker?
            if let track, let synthesizer { speaker = Speaker(track: track, synthesizer: synthesizer, log: { _ in }) }
            return RecorderAnnouncer(notice: notice, publisherID: publisherID, bot: bot, speaker: speaker, track: track,
                                     request: request, drain: drain)
        } catch {
            await bot.stop()
            drain.cancel()
            throw JanusFailure.failure(for: error, server: request.server, room: request.room)
        }
    }

    /// Recording has started: says so, and keeps saying it in data.
    func start() {
        speaker?.say(Self.startLine)
        guard notice.sendsData else { return }
        let task = Task { [self] in
            while !Task.isCancelled {
                var sent = false
                while !sent, !Task.isCancelled {
                    sent = await send(active: true)
                    if !sent { try? await Task.sleep(for: Self.retryInterval) }
                }
                try? await Task.sleep(for: Self.repeatInterval)
            }
        }
        ticker.withLock { $0 = task }
    }

    /// Recording has stopped: says so (data and/or speech, within ``finalDeadline``), then
    /// leaves. Returns whether everything went out in time.
    @discardableResult
    func finish(stoppedBy: String) async -> Bool {
        let task = ticker.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        let deadline = ContinuousClock.now + Self.finalDeadline
        var told = !notice.sendsData
        while !told, ContinuousClock.now < deadline {
            told = await send(active: false, extra: ["stopped_by": .string(stoppedBy)])
            if !told { try? await Task.sleep(for: Self.retryInterval) }
        }
        var spoken = speaker == nil
        if let speaker, let track {
            let before = speaker.counters
            speaker.say(Self.stopLine)
            // Spoken once the line is handed over (counted) and the track has played it out.
            while ContinuousClock.now < deadline {
                let now = speaker.counters
                if now.spoken + now.failed > before.spoken + before.failed, track.queuedDuration == .zero {
                    spoken = now.spoken > before.spoken
                    break
                }
                try? await Task.sleep(for: Self.retryInterval)
            }
            speaker.stop()
        }
        await bot.stop()
        drain.cancel()
        return told && spoken
    }

    /// Leaves without a word: the recording never started (its own join failed).
    func leave() async {
        ticker.withLock { $0?.cancel() }
        speaker?.stop()
        await bot.stop()
        drain.cancel()
    }

    private func send(active: Bool, extra: [String: JSONValue] = [:]) async -> Bool {
        var object = fields.merging(extra) { $1 }
        object["active"] = .bool(active)
        object["seq"] = .integer(Int64(sequence.withLock { $0 += 1; return $0 }))
        do {
            try await bot.send(text: JSONValue.object(object).serialized())
            return true
        } catch {
            return false
        }
    }
}
