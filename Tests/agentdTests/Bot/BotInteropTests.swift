import Agent
import BotKit
import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 4's Swift-bot and data acceptance against the lab: a BotKit bot pushing generated PCM
/// and I420 frames is recorded by `agentd record`; data goes from the bot to an aiortc
/// subscriber and from an aiortc publisher to the bot.
@Suite("BotInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct BotInteropTests {
    final class Events: Sendable {
        let list = Mutex<[BotEvent]>([])
        func received() -> [String] {
            list.withLock { events in
                events.compactMap { if case .dataReceived(_, .text(let text)) = $0 { text } else { nil } }
            }
        }
    }

    static func configuration(_ lab: LabEnvironment, room: String, display: String, listens: Bool) -> BotConfiguration {
        BotConfiguration(
            server: lab.janusWS, room: room, display: display, create: true, iceAddresses: [lab.hostIP ?? "10.77.0.1"], listens: listens)
    }

    @Test("a bot's pushed tone and moving square are recorded: the tone is there, the frame count checks out")
    func botIsRecorded() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await recordBot() }
        }
    }

    private func recordBot() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("bot")
        let scratch = try ScratchDirectory("bot-record")
        let out = scratch.path("recording")
        let audio = try AudioTrack(configuration: .init())
        let video = try VideoTrack(configuration: .init(bitrate: 600_000, framesPerSecond: 30))
        let bot = Bot(configuration: Self.configuration(lab, room: room, display: "swiftbot", listens: false))
        try await bot.start(BotMedia(audioTrack: audio, videoTrack: video))

        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", "6", "--ice-allow", "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }

        // Push the tone (TonePusher) and 15 fps video, until the
        // recorder is done.
        let pusher = TonePusher.start(audio)
        defer { pusher.cancel() }
        try await SquarePusher.push(video, while: recording)
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        let sent = await bot.sendStatistics()
        await bot.stop()

        let webm = out + "/swiftbot.webm"
        let streams = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", webm])
        #expect(streams.output.contains("opus") && streams.output.contains("vp8,320,240"), "\(streams.output)")
        #expect(try await RecordingChecks.decodeErrors(webm).isEmpty)
        // The recorder saw about 15 frames per second of its 6 s (it joined while the bot ran).
        let count = try await runTool("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", webm,
        ])
        let frames = Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect((70...95).contains(frames), "recorded \(frames) video frames of a 15 fps bot over 6 s; sent \(String(describing: sent[.video]))")
        let (samples, _) = try RecordingChecks.samples(out + "/swiftbot.wav")
        let middle = samples.dropFirst(2 * 48_000).prefix(3 * 48_000)
        #expect(goertzelPower(middle, frequency: 440) > 100 * goertzelPower(middle, frequency: 660))
        #expect(RecordingChecks.rms(middle) > 3000, "the tone arrived at full level: rms \(RecordingChecks.rms(middle))")
    }

    @Test("data: the bot's messages reach an aiortc subscriber, an aiortc publisher's reach the bot")
    func dataBothWays() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await exchangeData() }
        }
    }

    private func exchangeData() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("botdata")
        let scratch = try ScratchDirectory("bot-data")
        let publisher = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "talker", "--create",
             "--no-video", "--data-interval-ms", "100", "--duration", "40"], name: "aiortc publisher")
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))

        let audio = try AudioTrack(configuration: .init())
        let bot = Bot(configuration: Self.configuration(lab, room: room, display: "databot", listens: true))
        let events = Events()
        let collector = Task { for await event in bot.events { events.list.withLock { $0.append(event) } } }
        defer { collector.cancel() }
        try await bot.start(BotMedia(audioTrack: audio))

        let subscriber = try ChildProcess(
            Repository.python,
            [Repository.peer("subscriber.py"), "--ws", lab.janusWS, "--room", room, "--feed-display", "databot",
             "--out", scratch.path("subscriber"), "--duration", "30"], name: "aiortc subscriber")
        defer { subscriber.terminate() }
        _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))

        // Send every 100 ms until the subscriber logged some (its data channel opens after READY).
        var sent = 0
        var arrived: [String] = []
        let deadline = ContinuousClock.now + .seconds(15)
        while arrived.count < 5, ContinuousClock.now < deadline {
            try? await bot.send(text: "bot-says-\(sent)")
            sent += 1
            try await Task.sleep(for: .milliseconds(100))
            let log = (try? String(contentsOfFile: scratch.path("subscriber/data.jsonl"), encoding: .utf8)) ?? ""
            arrived = log.split(separator: "\n").filter { $0.contains("bot-says-") }.map(String.init)
        }
        #expect(arrived.count >= 5, "\(arrived.count) of \(sent) bot messages reached the aiortc subscriber")
        try await pollUntil(timeout: .seconds(15), "the aiortc publisher's data at the bot") {
            events.received().contains { $0.contains("\"from\": \"talker\"") }
        }
        let joined = events.list.withLock { $0.contains { if case .participantJoined(_, "talker") = $0 { true } else { false } } }
        #expect(joined, "the bot saw the talker join")
        await bot.stop()
    }
}
