import Foundation
import TestSupport
import Testing

/// Issue 4's WebM pass-through acceptance: `agentd play --video pattern.webm` sends the file's
/// stored Opus and VP8 frames; an aiortc subscriber hears the tone and decodes the video at the
/// clip's size, and in `agentd record`'s WebM of the room the file's sync marks (a white frame and
/// a beep at the same instant, every second) still line up.
@Suite("PlayWebM", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct PlayWebMTests {
    static let toleranceMs = 20.0

    func startPlayer(_ lab: LabEnvironment, room: String, webm: String, display: String) throws -> ChildProcess {
        try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", display, "--video", webm, "--create", "--loop",
             "--duration", "40", "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
            name: "agentd play")
    }

    @Test("an aiortc subscriber hears a played WebM's tone and decodes its 320x240 VP8")
    func aiortcSubscriberReceivesWebM() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let scratch = try ScratchDirectory("play-webm")
            let webm = try await GeneratedSamples.encoded("pattern.webm", in: scratch)
            let room = LabEnvironment.freshRoom("playwebm")
            let out = scratch.path("subscriber")
            let player = try startPlayer(lab, room: room, webm: webm, display: "webm")
            defer { player.terminate() }
            try await AiortcSubscriber.record(lab, room: room, display: "webm", out: out)
            #expect(player.isRunning, "agentd play ended early: \(player.stderr)")

            let (samples, _) = try RecordingChecks.samples(out + "/audio.wav")
            let middle = samples.dropFirst(48_000).prefix(4 * 48_000)
            let tone = goertzelPower(middle, frequency: 440)
            #expect(tone > 100 * goertzelPower(middle, frequency: 660) && tone > 100 * goertzelPower(middle, frequency: 880))
            #expect(RecordingChecks.rms(middle) > 3000, "rms \(RecordingChecks.rms(middle))")
            let video = out + "/video.webm"
            #expect(try await RecordingChecks.decodeErrors(video).isEmpty)
            let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                         "stream=codec_name,width,height", "-of", "csv=p=0", video])
            #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "vp8,320,240", "\(probe.output)")
        }
    }

    @Test("a played WebM's beeps and white frames stay within 20 ms of each other in the room's recording")
    func webmStaysInSync() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let scratch = try ScratchDirectory("play-webm-sync")
            let webm = try await GeneratedSamples.encoded("pattern.webm", in: scratch)
            let room = LabEnvironment.freshRoom("webmsync")
            let out = scratch.path("recording")
            let player = try startPlayer(lab, room: room, webm: webm, display: "marks")
            defer { player.terminate() }
            let recording = try ChildProcess(
                AgentdBinary.path,
                ["record", "--server", lab.janusWS, "--room", room, "--create", "--out", out, "--duration", "9",
                 "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
                name: "agentd record")
            defer { recording.terminate() }
            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")

            let recorded = out + "/marks.webm"
            let beeps = try await AVSyncAnalysis.beepOnsets(recorded)
            let (whites, _) = try await AVSyncAnalysis.whiteFrameOnsets(recorded)
            let pairs = AVSyncAnalysis.pairs(beeps: beeps, whites: whites, limit: 0.3)
            let offsets = pairs.map(\.offsetMs)
            print("PlayWebM: offsets (audio - video) ms \(offsets.map { String(format: "%+.1f", $0) })")
            try #require(pairs.count >= 5, "only \(pairs.count) pairs (beeps \(beeps), white frames \(whites))")
            let mean = offsets.reduce(0, +) / Double(offsets.count)
            #expect(abs(mean) <= Self.toleranceMs, "mean A/V offset \(mean) ms over \(pairs.count) pairs")
        }
    }
}
