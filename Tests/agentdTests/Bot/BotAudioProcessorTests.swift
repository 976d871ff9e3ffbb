import Agent
import BotKit
import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 15's audio processor acceptance against the lab: an engine's default capture noise
/// suppression on a bot's track raises the SNR of a tone in noise as `agentd record` hears it
/// (beside a bot on the same engine that opted out), and an engine's default render processor
/// sees an aiortc publisher's audio before the sink it was given to.
@Suite("BotAudioProcessor", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct BotAudioProcessorTests {
    static let recordSeconds = 9

    static func configuration(_ lab: LabEnvironment, room: String, display: String, create: Bool, listens: Bool = false) -> BotConfiguration {
        BotConfiguration(server: lab.janusWS, room: room, display: display, create: create,
                         iceAddresses: [lab.hostIP ?? "10.77.0.1"], listens: listens)
    }

    @Test("noise suppression on a bot track raises the SNR of a gated tone in white noise, as recorded")
    func captureNoiseSuppressionIsHeardInTheRoom() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await recordCleanAndPlainBots() }
        }
    }

    private func recordCleanAndPlainBots() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("nsbot")
        let scratch = try ScratchDirectory("bot-noise")
        let out = scratch.path("recording")
        // One engine per bot (an engine joins a room once), both with noise suppression as the
        // default: the plain bot's track opts out.
        let defaults = AudioProcessingDefaults(capture: try .noiseSuppression())
        let engines = (0..<2).map { AgentEngine(loopCount: 1, loopName: "test.ns\($0)", audioProcessing: defaults) }
        let configuration = AudioTrack.Configuration(bitrate: 128_000)
        let cleaned = try AudioTrack(configuration: configuration)  // takes the engine's default
        let plain = try AudioTrack(configuration: configuration, processor: .passThrough)
        let cleanBot = Bot(configuration: Self.configuration(lab, room: room, display: "cleaned", create: true), engine: engines[0])
        let plainBot = Bot(configuration: Self.configuration(lab, room: room, display: "plain", create: false), engine: engines[1])
        try await cleanBot.start(BotMedia(audioTrack: cleaned, dataChannel: false))
        try await plainBot.start(BotMedia(audioTrack: plain, dataChannel: false))

        // Both push the same noisy tone, paced by their queues, for longer than the recording.
        let signal = ToneInNoise(sampleRate: 48_000)
        let noisy = signal.samples(seconds: Double(Self.recordSeconds + 6))
        let pushers = [cleaned, plain].map { track in
            Task { try await track.push(noisy, sampleRate: 48_000, channels: 1) }
        }
        defer { for pusher in pushers { pusher.cancel() } }

        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", String(Self.recordSeconds),
             "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(Self.recordSeconds + 30), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        await cleanBot.stop()
        await plainBot.stop()
        for engine in engines { await engine.shutdown() }

        var figures: [String: Double] = [:]
        for name in ["cleaned", "plain"] {
            let (samples, rate) = try RecordingChecks.samples(out + "/\(name).wav")
            #expect(rate == 48_000)
            // From 3 s (both subscribed, speex settled) to 1 s before the end.
            let window = (3 * 48_000)..<max(3 * 48_000, samples.count - 48_000)
            try #require(window.count > 3 * 48_000, "\(name).wav holds \(samples.count) samples")
            let delay = signal.gatingDelay(in: samples, over: window)
            figures[name] = signal.snr(of: samples, over: window, delay: delay)
        }
        let gain = (figures["cleaned"] ?? 0) - (figures["plain"] ?? 0)
        print("BotAudioProcessor: recorded SNR plain \(String(format: "%.1f", figures["plain"] ?? 0)) dB, with speex noise suppression \(String(format: "%.1f", figures["cleaned"] ?? 0)) dB (+\(String(format: "%.1f", gain)) dB)")
        #expect(gain >= 6)
        #expect(cleaned.statistics.processorFailures == 0)
    }

    /// What the engine's render default saw, and what the sink delivered after it.
    final class RenderLog: Sendable {
        let seen = Mutex<[[Int16]]>([])
        let delivered = Mutex<[(samples: [Int16], seenByThen: Int)]>([])
    }

    /// Records each frame, then halves it.
    struct HalvingSpy: AudioProcessor {
        let format: AudioProcessingFormat
        let log: RenderLog

        mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
            try checkFrameLength(of: samples)
            let frame = samples
            log.seen.withLock { $0.append(frame) }
            for index in samples.indices { samples[index] /= 2 }
        }
    }

    @Test("an engine's render processor sees an aiortc publisher's audio before the bot's sink")
    func renderDefaultRunsBeforeTheSink() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await listenThroughARenderDefault() }
        }
    }

    private func listenThroughARenderDefault() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("renderbot")
        let publisher = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", "talker", "--create",
             "--no-video", "--tone", "440", "--data-interval-ms", "0", "--duration", "40"], name: "aiortc publisher")
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))

        let log = RenderLog()
        let spy = AudioProcessorFactory(name: "halving spy") { format throws(AudioProcessorError) in HalvingSpy(format: format, log: log) }
        let engine = AgentEngine(loopCount: 1, loopName: "test.render", audioProcessing: AudioProcessingDefaults(render: spy))
        let bot = Bot(configuration: Self.configuration(lab, room: room, display: "listener", create: false, listens: true), engine: engine)
        let format = try RemoteAudioFormat(sampleRate: 16_000, frameDuration: .milliseconds20)
        let watcher = Task {
            for await event in bot.events {
                guard case .trackSubscribed(_, _, let track) = event, track.kind == .audio else { continue }
                let sink = try RemoteAudioSink(format: format) { frame in
                    let seen = log.seen.withLock { $0.count }
                    log.delivered.withLock { $0.append((frame.int16Samples ?? [], seen)) }
                }
                track.add(sink)
            }
        }
        defer { watcher.cancel() }
        try await bot.start(BotMedia(audioTrack: try AudioTrack()))
        try await pollUntil(timeout: .seconds(20), "100 frames of the talker through the render default") {
            log.delivered.withLock { $0.count } >= 100
        }
        await bot.stop()
        await engine.shutdown()

        let seen = log.seen.withLock { $0 }
        let delivered = log.delivered.withLock { $0 }
        var mismatches = 0
        for (index, frame) in delivered.enumerated() {
            #expect(frame.seenByThen >= index + 1, "frame \(index) reached the sink before the processor")
            if index >= seen.count || frame.samples != seen[index].map({ $0 / 2 }) { mismatches += 1 }
        }
        let level = RecordingChecks.rms(seen.dropFirst(25).flatMap { $0 })
        print("BotAudioProcessor: \(delivered.count) frames delivered, \(seen.count) seen by the render default first; \(mismatches) differ from its output; talker rms \(level)")
        #expect(mismatches == 0)
        #expect(level > 1_000, "the talker's tone came through")
    }
}
