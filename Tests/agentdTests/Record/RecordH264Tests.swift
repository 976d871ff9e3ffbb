import Foundation
import TestSupport
import Testing

/// Issue 13's H.264 acceptance with a real browser: a headless Chromium publishing H.264
/// (libwebrtc's OpenH264 encoder, packetization-mode 1) into a room that allows it is recorded
/// into `<name>.mkv` with its Opus; a kill -9 leaves a playable file (5 % loss: RecordLossTests;
/// GStreamer's H.264 publisher: GStreamerInteropTests).
@Suite("RecordH264", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordH264Tests {
    static let recordSeconds = 8.0

    /// A Chromium publisher of H.264 + a 440 Hz tone in a fresh room it creates (vp8,vp9,h264 with
    /// h264 first), READY.
    static func chromiumH264(_ lab: LabEnvironment, room: String, display: String) async throws -> ChildProcess {
        let process = try ChildProcess(
            "/usr/bin/python3",
            [Repository.peer("chromium/driver.py"), "publish", "--ws", lab.janusWS, "--room", room, "--display", display,
             "--create", "--video-codec", "h264", "--tone", "440", "--duration", "90"],
            name: "chromium-\(display)")
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        return process
    }

    static func record(_ lab: LabEnvironment, room: String, out: String, seconds: Double?, _ flags: [String] = []) throws -> ChildProcess {
        try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"]
                + (seconds.map { ["--duration", String(Int($0))] } ?? []) + flags,
            name: "agentd record")
    }

    @Test("a Chromium H.264 publisher: <name>.mkv with h264 + opus that ffmpeg decodes clean, the tone right, 8 s ± 0.2")
    func recordsChromiumH264() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("h264")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-h264-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let publisher = try await Self.chromiumH264(lab, room: room, display: "safari")
            defer { publisher.terminate() }
            let recording = try Self.record(lab, room: room, out: out, seconds: Self.recordSeconds)
            defer { recording.terminate() }
            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")

            let mkv = out + "/safari.mkv"
            #expect(!FileManager.default.fileExists(atPath: out + "/safari.webm"))
            #expect(try await RecordingChecks.streamCodecs(mkv).sorted() == ["h264", "opus"])
            let errors = try await RecordingChecks.decodeErrors(mkv)
            #expect(errors.isEmpty, "decode errors: \(errors.prefix(600))")
            let info = try await RecordingChecks.mkvinfo(mkv)
            #expect(info.status == 0 && info.output.contains("V_MPEG4/ISO/AVC"), "\(info.output.prefix(600))")
            let duration = try await RecordingChecks.formatDuration(mkv)
            let (samples, rate) = try RecordingChecks.samples(out + "/safari.wav")
            let manifest = try Self.manifest(out)
            let participant = try #require((manifest["participants"] as? [[String: Any]])?.first)
            let file = try #require((participant["files"] as? [[String: Any]])?.first { $0["format"] as? String == "webm" })
            // The file starts with the first frame (start_ms on the recording's timeline) and runs to its end.
            let startSeconds = Double(file["start_ms"] as? Int ?? 0) / 1000
            print("RecordH264: safari.mkv lasts \(duration) s from \(startSeconds) s; "
                  + RecordingChecks.toneReport(samples.dropFirst(48_000).prefix(5 * 48_000)))
            #expect(abs(startSeconds + duration - Self.recordSeconds) <= 0.2, "safari.mkv lasts \(duration) s from \(startSeconds) s")
            #expect(rate == 48_000)
            RecordingChecks.expectTone(samples.dropFirst(48_000).prefix(5 * 48_000), "safari.wav")

            #expect(file["path"] as? String == "safari.mkv" && file["container"] as? String == "matroska", "\(file)")
            let codecs = (file["tracks"] as? [[String: Any]])?.compactMap { $0["codec"] as? String }
            #expect(codecs == ["opus", "h264"], "\(file)")
        }
    }

    @Test("kill -9 during an H.264 recording leaves a playable .mkv")
    func killLeavesAPlayableFile() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("h264kill")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-h264kill-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let publisher = try await Self.chromiumH264(lab, room: room, display: "safari")
            defer { publisher.terminate() }
            let recording = try Self.record(lab, room: room, out: out, seconds: nil)
            defer { recording.terminate() }
            // 5 s of video in the file: waits for it to grow past a few clusters, not for a time.
            try await pollUntil(timeout: .seconds(40), "the .mkv to hold 5 s") {
                let path = out + "/safari.mkv"
                guard FileManager.default.fileExists(atPath: path) else { return false }
                return (try? await RecordingChecks.formatDuration(path)).map { $0 >= 5 } ?? false
            }
            recording.send(signal: SIGKILL)
            try await pollUntil(timeout: .seconds(15), "agentd to die") { !recording.isRunning }
            let mkv = out + "/safari.mkv"
            let seconds = try await RecordingChecks.formatDuration(mkv)
            print("RecordH264: after kill -9, safari.mkv lasts \(seconds) s")
            #expect(seconds >= 4.5, "\(seconds) s")
            #expect(try await RecordingChecks.streamCodecs(mkv).sorted() == ["h264", "opus"])
            let errors = try await RecordingChecks.decodeErrors(mkv)
            #expect(errors.isEmpty, "decode errors after kill -9: \(errors.prefix(600))")
        }
    }

    /// `annexb`: a `.h264` stream beside a WAV; `mkv`: an ffmpeg Matroska file with H.264 and
    /// Opus, both tracks played as stored (samples back to Annex B, SPS/PPS from CodecPrivate).
    @Test("agentd play of H.264 (Annex B + WAV, or Matroska with Opus), recorded by agentd record: a clean .mkv with every frame",
          arguments: ["annexb", "mkv"])
    func recordsAgentdPlayH264(source: String) async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let scratch = try ScratchDirectory("play-h264")
            let room = LabEnvironment.freshRoom("playh264")
            let out = scratch.path("recording")
            let player = try ChildProcess(
                AgentdBinary.path,
                ["play", "--server", lab.janusWS, "--room", room, "--display", "player"]
                    + (source == "mkv" ? ["--video", try await GeneratedSamples.h264Matroska(in: scratch)]
                        : ["--audio", try await GeneratedSamples.toneWAV(in: scratch), "--video", try await GeneratedSamples.h264Stream(in: scratch)])
                    + ["--create", "--loop", "--duration", "40",
                 "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
                name: "agentd play")
            defer { player.terminate() }
            // Records once the player publishes in the room it creates.
            try await pollUntil(timeout: .seconds(30), "agentd play to publish") {
                let list = try? await runTool(AgentdBinary.path, ["participants", "--server", lab.janusWS, "--room", room])
                return list?.status == 0 && list?.output.contains("player") == true
            }
            let recording = try Self.record(lab, room: room, out: out, seconds: Self.recordSeconds)
            defer { recording.terminate() }
            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            let mkv = out + "/player.mkv"
            #expect(try await RecordingChecks.streamCodecs(mkv).sorted() == ["h264", "opus"])
            let errors = try await RecordingChecks.decodeErrors(mkv)
            #expect(errors.isEmpty, "decode errors: \(errors.prefix(600))")
            let frames = try await RecordingChecks.videoFrames(mkv)
            print("RecordH264: agentd play's H.264 (\(source)) recorded: \(frames) frames in \(Self.recordSeconds) s")
            // The recorder's PLI is answered with a keyframe at once: nearly every frame is there.
            #expect(Double(frames) >= 0.9 * 30 * (Self.recordSeconds - 0.5), "\(frames) frames")
        }
    }

    static func manifest(_ out: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
