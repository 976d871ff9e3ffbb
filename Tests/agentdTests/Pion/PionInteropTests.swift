import Foundation
import TestSupport
import Testing

/// Interop with Pion (Go WebRTC, Debian's 3.1.56) through the lab's Janus: `agentd record`
/// records a Pion publisher, and a Pion subscriber records `agentd play`. Pion neither decodes
/// nor re-encodes: what it sends is the file's own VP8 and Opus, and what it writes is what
/// arrived, checked here by ffmpeg.
///
/// Samples are made per test in a scratch directory (agentd-samples, sox), never read from samples/.
@Suite("PionInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct PionInteropTests {
    static let recordingSeconds = 10.0

    @Test("agentd record records a Pion publisher's VP8 and Opus: clean decode, the 440 Hz tone, the full length")
    func recordsPionPublisher() async throws {
        try await PionPeers.build()
        try await SharedResourceLock.lab.withExclusive { try await recordPionPublisher() }
    }

    private func recordPionPublisher() async throws {
        let lab = try LabEnvironment.required()
        let iface = lab.values["LAB_IFACE"] ?? "agentd-lab0"
        let scratch = try ScratchDirectory("pion-record")
        let room = LabEnvironment.freshRoom("pionrec")
        let out = scratch.path("recording")
        let ivf = try await GeneratedSamples.encoded("pattern-vp8.ivf", in: scratch)
        let ogg = try await GeneratedSamples.encoded("tone-440.opus", in: scratch)
        let publisherSummary = scratch.path("publisher.json")

        let publisher = try ChildProcess(
            PionPeers.publisher,
            ["--ws", lab.janusWS, "--room", room, "--display", "pion", "--create", "--ivf", ivf, "--ogg", ogg,
             "--duration", "60", "--ice-allow", iface, "--summary", publisherSummary],
            name: "pion publisher")
        defer { publisher.terminate() }
        _ = try await publisher.waitForLine(prefix: "READY", within: .seconds(30))

        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", String(Int(Self.recordingSeconds)),
             "--ice-allow", iface],
            name: "agentd record")
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        #expect(publisher.isRunning, "the Pion publisher ended early: \(publisher.stderr)")
        await publisher.terminate()
        #expect(publisher.exitStatus == 0, "the Pion publisher did not stop cleanly on SIGTERM: \(publisher.stderr)")
        let sent = try PionPeers.summary(publisherSummary)
        print("PionInterop: Pion publisher sent video \(sent["video"] ?? "?"), audio \(sent["audio"] ?? "?")")

        let manifest = try PionPeers.summary(out + "/manifest.json")
        let participants = try #require(manifest["participants"] as? [[String: Any]])
        let pion = try #require(participants.first { $0["name"] as? String == "pion" }, "no participant pion in \(participants)")
        print("PionInterop: agentd record stats \(pion["stats"] ?? "?")")

        let webm = out + "/pion.webm"
        let codecs = try await RecordingChecks.streamCodecs(webm)
        #expect(codecs.sorted() == ["opus", "vp8"], "pion.webm streams: \(codecs)")
        let errors = try await RecordingChecks.decodeErrors(webm)
        #expect(errors.isEmpty, "pion.webm decode errors: \(errors.prefix(600))")
        #expect(try await RecordingChecks.mkvinfo(webm).status == 0, "mkvinfo complained about pion.webm")
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                     "stream=width,height", "-of", "csv=p=0", webm])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "320,240", "\(probe.output)")

        // The webm lasts as long as the recording: the publisher was there from its first moment.
        let recorded = Double(manifest["duration_ms"] as? Int ?? 0) / 1000
        let duration = try await RecordingChecks.run(
            "/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", webm])
        let webmSeconds = Double(duration.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        print("PionInterop: pion.webm lasts \(webmSeconds) s of a \(recorded) s recording")
        #expect(abs(recorded - Self.recordingSeconds) <= 0.2, "the recording lasted \(recorded) s")
        #expect(abs(webmSeconds - recorded) <= 0.2, "pion.webm lasts \(webmSeconds) s of a \(recorded) s recording")

        let (samples, rate) = try RecordingChecks.samples(out + "/pion.wav")
        #expect(rate == 48_000)
        let middle = samples.dropFirst(48_000).prefix(8 * 48_000)
        try expectTone(middle, "pion.wav")
    }

    @Test("a Pion subscriber records agentd play's VP8 and Opus: frames arrive, the IVF decodes cleanly, the Ogg holds the tone")
    func pionSubscriberReceivesPlay() async throws {
        try await PionPeers.build()
        try await SharedResourceLock.lab.withExclusive { try await pionSubscriberReceives() }
    }

    private func pionSubscriberReceives() async throws {
        let lab = try LabEnvironment.required()
        let iface = lab.values["LAB_IFACE"] ?? "agentd-lab0"
        let scratch = try ScratchDirectory("pion-play")
        let room = LabEnvironment.freshRoom("pionplay")
        let out = scratch.path("subscriber")
        let wav = try await GeneratedSamples.toneWAV(in: scratch)
        let ivf = try await GeneratedSamples.encoded("pattern-vp8.ivf", in: scratch)
        let player = try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", "player", "--audio", wav, "--video", ivf,
             "--create", "--loop", "--duration", "40", "--ice-allow", iface],
            name: "agentd play")
        defer { player.terminate() }
        // The subscriber waits for the room and the publisher to appear (--find-timeout).
        let subscriber = try ChildProcess(
            PionPeers.subscriber,
            ["--ws", lab.janusWS, "--room", room, "--feed-display", "player", "--out", out, "--duration", "6",
             "--find-timeout", "20", "--ice-allow", iface],
            name: "pion subscriber")
        defer { subscriber.terminate() }
        _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(40))
        try await pollUntil(timeout: .seconds(20), "the Pion subscriber to finish") { !subscriber.isRunning }
        #expect(subscriber.exitStatus == 0, "\(subscriber.stderr.suffix(2000))")
        #expect(player.isRunning, "agentd play ended early: \(player.stderr)")
        await player.terminate()
        #expect(player.exitStatus == 0, "agentd play did not stop cleanly on SIGTERM: \(player.stderr)")

        let summary = try PionPeers.summary(out + "/summary.json")
        print("PionInterop: Pion subscriber summary \(summary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        #expect(summary["video_codec"] as? String == "vp8" && summary["audio_codec"] as? String == "opus", "\(summary)")
        #expect(summary["video_width"] as? Int == 320 && summary["video_height"] as? Int == 240, "\(summary)")
        let frames = summary["video_frames"] as? Int ?? 0
        let written = summary["video_frames_written"] as? Int ?? 0
        // 6 s at 30 fps is 180 frames; agentd answers the subscriber's PLI with a key frame at
        // once (KeyframeBridge), so nearly all are written. Pion does not decode: no CPU limit.
        #expect(frames >= 150 && written >= 150, "6 s of 30 fps video arrived as \(frames) frames, \(written) written")
        #expect(summary["video_lost"] as? Int == 0 && summary["audio_lost"] as? Int == 0, "\(summary)")

        let video = out + "/video.ivf"
        let videoErrors = try await RecordingChecks.decodeErrors(video)
        #expect(videoErrors.isEmpty, "video.ivf decode errors: \(videoErrors.prefix(600))")
        let counted = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                       "-show_entries", "stream=codec_name,width,height,nb_read_frames",
                                                       "-of", "csv=p=0", video])
        #expect(counted.output.trimmingCharacters(in: .whitespacesAndNewlines) == "vp8,320,240,\(written)",
                "ffprobe of video.ivf: \(counted.output); the subscriber wrote \(written) frames")

        let ogg = out + "/audio.ogg"
        let audioErrors = try await RecordingChecks.decodeErrors(ogg)
        #expect(audioErrors.isEmpty, "audio.ogg decode errors: \(audioErrors.prefix(600))")
        let decoded = scratch.path("audio.wav")
        let conversion = try await RecordingChecks.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", ogg,
                                                                          "-ac", "1", "-ar", "48000", decoded])
        #expect(conversion.status == 0, "\(conversion.output)")
        let (samples, rate) = try RecordingChecks.samples(decoded)
        #expect(rate == 48_000)
        let seconds = Double(samples.count) / 48_000
        #expect(abs(seconds - 6) <= 0.5, "audio.ogg holds \(seconds) s of a 6 s subscription")
        try expectTone(samples.dropFirst(48_000).prefix(4 * 48_000), "audio.ogg")
    }

    /// The half-scale 440 Hz tone: 30 dB over 660 and 880 Hz, at its level.
    private func expectTone(_ samples: ArraySlice<Int16>, _ name: String) throws {
        try #require(samples.count >= 48_000, "\(name) holds only \(samples.count) samples")
        let tone = goertzelPower(samples, frequency: 440)
        let (at660, at880) = (goertzelPower(samples, frequency: 660), goertzelPower(samples, frequency: 880))
        let rms = RecordingChecks.rms(samples)
        print("PionInterop: \(name): 440 Hz is \(String(format: "%.0f", 10 * log10(tone / max(at660, at880, 1)))) dB above 660/880 Hz; RMS \(Int(rms))")
        #expect(tone > 1000 * at660 && tone > 1000 * at880, "\(name): no clean 440 Hz tone")
        #expect(rms > 8000, "\(name): the half-scale tone arrived at RMS \(Int(rms))")
    }
}
