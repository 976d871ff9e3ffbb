import Foundation
import TestSupport
import Testing

/// Interop with Pion (Go WebRTC, Debian's 3.1.56) through the lab's Janus: `agentd record`
/// records a Pion publisher, and a Pion subscriber records `agentd play`, each with VP8 and with
/// H.264 (packetization mode 1, Constrained Baseline 42e01f) beside Opus. Pion neither decodes
/// nor re-encodes: what it sends is the file's own video and Opus, and what it writes is what
/// arrived, checked here by ffmpeg.
///
/// Samples are made per test in a scratch directory (agentd-samples, ffmpeg's libx264, sox),
/// never read from samples/.
@Suite("PionInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct PionInteropTests {
    static let recordingSeconds = 10.0

    @Test("agentd record records a Pion publisher's video and Opus: clean decode, the 440 Hz tone, the full length",
          arguments: PionVideo.all)
    func recordsPionPublisher(_ video: PionVideo) async throws {
        try await PionPeers.build()
        try await SharedResourceLock.lab.withExclusive { try await recordPionPublisher(video) }
    }

    /// A publisher that ignores PLI and sends an IDR every 3 s (a file streamed as stored, as here,
    /// or an encoder with a fixed GOP): agentd record holds audio 2 s for the first keyframe
    /// (ParticipantWebM's hold limit), so the recording may begin as an audio-only `pion.webm`;
    /// the video then starts `pion.part2.mkv` at its first keyframe, with every frame from there.
    @Test("agentd record of a Pion H.264 publisher with an IDR every 3 s keeps its video: from the first IDR, in the next part if it came late")
    func recordsPionPublisherWithSparseKeyframes() async throws {
        try await PionPeers.build()
        try await SharedResourceLock.lab.withExclusive { try await recordPionPublisher(.h264SparseKeyframes) }
    }

    private func recordPionPublisher(_ video: PionVideo) async throws {
        let lab = try LabEnvironment.required()
        let iface = lab.values["LAB_IFACE"] ?? "agentd-lab0"
        let scratch = try ScratchDirectory("pion-record")
        let room = LabEnvironment.freshRoom("pionrec")
        let out = scratch.path("recording")
        let sample = try await video.sample(in: scratch)
        let ogg = try await GeneratedSamples.encoded("tone-440.opus", in: scratch)
        let publisherSummary = scratch.path("publisher.json")

        let publisher = try ChildProcess(
            PionPeers.publisher,
            ["--ws", lab.janusWS, "--room", room, "--display", "pion", "--create", video.publisherFlag, sample, "--ogg", ogg,
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

        // The part that holds the video is the last; with sparse keyframes the first IDR may
        // come after the hold limit, behind an audio-only first part.
        let parts = (pion["files"] as? [[String: Any]] ?? []).filter { $0["format"] as? String == "webm" }.compactMap { $0["path"] as? String }
        let name = "pion.\(video.recordingExtension)"
        let late = ["pion.webm", "pion.part2.\(video.recordingExtension)"]
        #expect(parts == [name] || (video.keyframeSeconds > 2 && parts == late), "pion's files: \(parts)")
        let file = out + "/" + (parts.last ?? name)
        try #require(FileManager.default.fileExists(atPath: file), "pion's files: \(parts)")
        let codecs = try await RecordingChecks.streamCodecs(file)
        #expect(codecs.sorted() == [video.codec.name, "opus"].sorted(), "\(name) streams: \(codecs)")
        let errors = try await RecordingChecks.decodeErrors(file)
        #expect(errors.isEmpty, "\(name) decode errors: \(errors.prefix(600))")
        let info = try await RecordingChecks.mkvinfo(file)
        #expect(info.status == 0 && info.output.contains(video.codec.matroskaCodecID), "mkvinfo of \(name): \(info.output.prefix(600))")
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                     "stream=width,height,nb_read_frames", "-of", "csv=p=0", file])
        let fields = probe.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
        #expect(fields.prefix(2) == ["320", "240"], "\(probe.output)")
        // The video starts at the file's first keyframe after agentd record's PLI; from there every frame.
        let frames = fields.count == 3 ? Int(fields[2]) ?? 0 : 0
        let expected = 30 * (Self.recordingSeconds - video.keyframeSeconds)
        print("PionInterop: \(name) holds \(frames) video frames")
        #expect(Double(frames) >= 0.9 * expected, "\(name) holds \(frames) video frames, under 90 % of \(Int(expected))")

        // The file lasts as long as the recording: the publisher was there from its first moment
        // (its Opus starts the file even while the video waits for a keyframe).
        // With two parts, the first (audio only) decodes clean too, and the parts tile the time.
        let recorded = Double(manifest["duration_ms"] as? Int ?? 0) / 1000
        var fileSeconds = 0.0
        for part in parts {
            fileSeconds += try await RecordingChecks.formatDuration(out + "/" + part)
            let partErrors = try await RecordingChecks.decodeErrors(out + "/" + part)
            #expect(partErrors.isEmpty, "\(part) decode errors: \(partErrors.prefix(600))")
        }
        print("PionInterop: \(parts) last \(fileSeconds) s of a \(recorded) s recording")
        #expect(abs(recorded - Self.recordingSeconds) <= 0.2, "the recording lasted \(recorded) s")
        #expect(abs(fileSeconds - recorded) <= 0.3, "\(parts) last \(fileSeconds) s of a \(recorded) s recording")

        let (samples, rate) = try RecordingChecks.samples(out + "/pion.wav")
        #expect(rate == 48_000)
        let middle = samples.dropFirst(48_000).prefix(8 * 48_000)
        try expectTone(middle, "pion.wav")
    }

    @Test("a Pion subscriber records agentd play's video and Opus: frames arrive, the video decodes cleanly, the Ogg holds the tone",
          arguments: PionVideo.all)
    func pionSubscriberReceivesPlay(_ video: PionVideo) async throws {
        try await PionPeers.build()
        try await SharedResourceLock.lab.withExclusive { try await pionSubscriberReceives(video) }
    }

    private func pionSubscriberReceives(_ video: PionVideo) async throws {
        let lab = try LabEnvironment.required()
        let iface = lab.values["LAB_IFACE"] ?? "agentd-lab0"
        let scratch = try ScratchDirectory("pion-play")
        let room = LabEnvironment.freshRoom("pionplay")
        let out = scratch.path("subscriber")
        let wav = try await GeneratedSamples.toneWAV(in: scratch)
        let sample = try await video.sample(in: scratch)
        let player = try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", "player", "--audio", wav, "--video", sample,
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
        #expect(summary["video_codec"] as? String == video.codec.name && summary["audio_codec"] as? String == "opus", "\(summary)")
        #expect(summary["video_width"] as? Int == 320 && summary["video_height"] as? Int == 240, "\(summary)")
        let frames = summary["video_frames"] as? Int ?? 0
        let written = summary["video_frames_written"] as? Int ?? 0
        // 6 s at 30 fps is 180 frames; agentd answers the subscriber's PLI with a key frame at
        // once (KeyframeBridge), so nearly all are written. Pion does not decode: no CPU limit.
        #expect(frames >= 150 && written >= 150, "6 s of 30 fps video arrived as \(frames) frames, \(written) written")
        #expect(summary["video_lost"] as? Int == 0 && summary["audio_lost"] as? Int == 0, "\(summary)")

        #expect(summary["video_file"] as? String == video.subscriberFile, "\(summary)")
        let videoFile = out + "/" + video.subscriberFile
        let videoErrors = try await RecordingChecks.decodeErrors(videoFile)
        #expect(videoErrors.isEmpty, "\(video.subscriberFile) decode errors: \(videoErrors.prefix(600))")
        let counted = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                       "-show_entries", "stream=codec_name,width,height,nb_read_frames",
                                                       "-of", "csv=p=0", videoFile])
        #expect(counted.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(video.codec.name),320,240,\(written)",
                "ffprobe of \(video.subscriberFile): \(counted.output); the subscriber wrote \(written) frames")
        // Over 90 % of the frames the (looped) file plays in the subscription decode.
        let decodable = 30 * (summary["recorded_s"] as? Double ?? 0)
        #expect(Double(written) > 0.9 * decodable, "\(written) of the \(Int(decodable)) frames played were written")

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
