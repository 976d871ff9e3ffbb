import Agent
import BotKit
import Foundation
import Synchronization
import TestSupport
import Testing

/// A host comes back after a Janus restart: a BotKit bot publishing a tone reports reconnecting,
/// rejoins (creating the room again) and publishes on, and `agentd record`, which rides out the
/// same restart, records its tone again after the gap, in the same files.
///
/// Restarting Janus affects every lab user: run under `flock /tmp/agentd-lab.lock`.
@Suite("BotReconnect", .enabled(if: LabEnvironment.shouldRunDisruptive), .serialized)
struct BotReconnectTests {
    @Test("a Janus restart: the bot reports reconnecting, comes back, and is recorded again after the gap")
    func botComesBack() async throws {
        try await withCleanup {
            try await SharedResourceLock.lab.withExclusive {
                try await SharedResourceLock.usrsctp.withShared { try await restartUnderTheBot() }
            }
        } cleanup: {
            await RecordReconnectTests.ensureLabUp()
        }
    }

    private func restartUnderTheBot() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("botback")
        let scratch = try ScratchDirectory("bot-reconnect")
        let out = scratch.path("recording")
        let audio = try AudioTrack(configuration: .init())
        let configuration = BotConfiguration(
            server: lab.janusWS, room: room, display: "swiftbot", create: true, iceAddresses: [lab.hostIP ?? "10.77.0.1"], listens: false,
            reconnect: ReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(2), maximumDuration: .seconds(60)))
        let bot = Bot(configuration: configuration)
        let events = Mutex<[BotEvent]>([])
        let watcher = Task { for await event in bot.events { events.withLock { $0.append(event) } } }
        defer { watcher.cancel() }
        try await bot.start(BotMedia(audioTrack: audio))
        let pusher = TonePusher.start(audio)
        defer { pusher.cancel() }

        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", out, "--duration", "24", "--ice-allow", "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(30), "the recorder to have the bot's file") {
            FileManager.default.fileExists(atPath: out + "/swiftbot.wav")
        }

        let restart = try await RecordingChecks.lab("restart-janus")
        #expect(restart.status == 0, "\(restart.output)")
        try await pollUntil(timeout: .seconds(60), "the bot to come back") {
            events.withLock { $0.contains { if case .reconnected = $0 { true } else { false } } }
        }
        let seen = events.withLock { $0 }
        let reconnecting = seen.firstIndex { if case .reconnecting = $0 { true } else { false } }
        let reconnected = seen.firstIndex { if case .reconnected = $0 { true } else { false } }
        #expect(reconnecting != nil && reconnecting! < reconnected!, "events \(seen)")
        #expect(!seen.contains { if case .connectionLost = $0 { true } else { false } })

        try await pollUntil(timeout: .seconds(60), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        let sent = await bot.sendStatistics()
        await bot.stop()
        print("BotReconnect: \(seen.filter { if case .statistics = $0 { false } else { true } }); sent after the rejoin: \(String(describing: sent[.audio]))")

        // One participant with both Janus ids, the tone again in the last 4 s of the WAV.
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let participants = manifest["participants"] as? [[String: Any]] ?? []
        #expect(participants.map { $0["name"] as? String } == ["swiftbot"], "\(participants)")
        #expect((participants.first?["ids"] as? [String])?.count == 2, "\(participants.first?["ids"] ?? "no ids")")
        #expect((manifest["gaps"] as? [Any])?.isEmpty == false, "the recorder lists its own gap")
        let (samples, rate) = try RecordingChecks.samples(out + "/swiftbot.wav")
        let tail = samples.suffix(4 * rate)
        let (tone, at660) = (goertzelPower(tail, frequency: 440), goertzelPower(tail, frequency: 660))
        print("BotReconnect: swiftbot.wav \(samples.count / rate) s; last 4 s: 440 Hz \(String(format: "%.0f", 10 * log10(tone / max(at660, 1)))) dB above 660 Hz, RMS \(Int(RecordingChecks.rms(tail)))")
        #expect(tone > 100 * at660)
        #expect(RecordingChecks.rms(tail) > 3000)
        #expect(try await RecordingChecks.decodeErrors(out + "/swiftbot.webm").isEmpty)
    }
}
