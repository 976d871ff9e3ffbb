import Foundation
import TestSupport
import Testing

/// agentd against GStreamer's webrtcbin (1.22, libnice, Debian's encoders), a third WebRTC stack
/// beside aiortc and Chromium: `agentd record` of a GStreamer VP8 + Opus publisher, and a
/// GStreamer subscriber decoding `agentd play`. The GStreamer H.264 publisher is checked against
/// Janus with a GStreamer subscriber; `agentd record` of it waits behind
/// ``GStreamerPeer/recordH264Flag`` until agentd records H.264.
@Suite("GStreamerInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct GStreamerInteropTests {
    static let recordSeconds = 8.0

    @Test("agentd record of a GStreamer VP8 + Opus publisher: a clean WebM, the 440 Hz tone, 8 s long")
    func recordsGStreamerVP8() async throws {
        try await SharedResourceLock.lab.withExclusive { try await recordGStreamer(codec: "vp8") }
    }

    @Test("agentd record of a GStreamer H.264 (x264enc) + Opus publisher: a clean Matroska file, the 440 Hz tone, 8 s long")
    func recordsGStreamerH264() async throws {
        try await SharedResourceLock.lab.withExclusive { try await recordGStreamer(codec: "h264") }
    }

    /// Records a GStreamer publisher of `codec` for ``recordSeconds`` and checks the file the
    /// manifest names for its video (gstreamer.webm for VP8; H.264 cannot go in WebM) and
    /// gstreamer.wav.
    private func recordGStreamer(codec: String) async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("gst-\(codec)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-gst-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let publisher = try await GStreamerPeer.publisher(lab, room: room, display: "gstreamer", codec: codec)
        defer { publisher.terminate() }

        let recording = try ChildProcess(
            AgentdBinary.path,
            ["record", "--server", lab.janusWS, "--room", room, "--out", out, "--duration", String(Int(Self.recordSeconds)),
             "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
            name: "agentd record")
        defer { recording.terminate() }
        try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
        #expect(recording.exitStatus == 0, "\(recording.stderr)")
        #expect(publisher.isRunning, "the GStreamer publisher ended early: \(publisher.stderr)")
        await publisher.terminate()
        #expect(publisher.exitStatus == 0, "the GStreamer publisher did not stop cleanly on SIGTERM: \(publisher.stderr)")

        let media = out + "/" + (try Self.videoFile(manifest: out + "/manifest.json", participant: "gstreamer", codec: codec))
        let codecs = try await RecordingChecks.streamCodecs(media).sorted()
        #expect(codecs == [codec, "opus"].sorted(), "\(media): \(codecs)")
        let errors = try await RecordingChecks.decodeErrors(media)
        #expect(errors.isEmpty, "\(media) decode errors: \(errors.prefix(600))")
        #expect(try await RecordingChecks.mkvinfo(media).status == 0, "mkvinfo complained about \(media)")
        let duration = try await RecordingChecks.formatDuration(media)
        let (samples, rate) = try RecordingChecks.samples(out + "/gstreamer.wav")
        let wavSeconds = Double(samples.count) / Double(max(rate, 1))
        print("GStreamerInterop: recorded \(codec): \(media) lasts \(duration) s, gstreamer.wav \(wavSeconds) s; "
              + RecordingChecks.toneReport(samples.dropFirst(48_000).prefix(5 * 48_000)))
        #expect(abs(duration - Self.recordSeconds) <= 0.2, "\(media) lasts \(duration) s")
        #expect(rate == 48_000)
        #expect(abs(wavSeconds - Self.recordSeconds) <= 0.2, "gstreamer.wav lasts \(wavSeconds) s")
        RecordingChecks.expectTone(samples.dropFirst(48_000).prefix(5 * 48_000), "gstreamer.wav")
    }

    @Test("a GStreamer subscriber decodes agentd play's video (VP8 IVF, H.264 Annex B) and the 440 Hz tone",
          arguments: ["vp8", "h264"])
    func gstreamerSubscribesToPlay(_ codec: String) async throws {
        try await SharedResourceLock.lab.withExclusive { try await subscribeToPlay(codec) }
    }

    private func subscribeToPlay(_ codec: String) async throws {
        let lab = try LabEnvironment.required()
        let scratch = try ScratchDirectory("gst-play")
        let room = LabEnvironment.freshRoom("gst-play")
        let seconds = 6
        let wav = try await GeneratedSamples.toneWAV(in: scratch)
        let file = codec == "vp8" ? try await GeneratedSamples.encoded("pattern-vp8.ivf", in: scratch)
                                  : try await GeneratedSamples.h264Stream(in: scratch)
        let player = try ChildProcess(
            AgentdBinary.path,
            ["play", "--server", lab.janusWS, "--room", room, "--display", "player", "--audio", wav, "--video", file,
             "--create", "--loop", "--duration", "40", "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
            name: "agentd play")
        defer { player.terminate() }
        let out = scratch.path("subscriber")
        // The re-mux is VP8's only: with H.264, agentd's own keyframe for the subscriber's PLI has
        // libopenh264's SPS, the file's next IDR x264's again, and matroskamux refuses a caps
        // change (decoders follow it; our recorder keeps one file, see ParticipantWebM).
        let video: String? = codec == "vp8" ? out + "/video.webm" : nil
        let subscriber = try GStreamerPeer.subscriber(lab, room: room, feed: "player", out: out, seconds: seconds, videoOut: video)
        defer { subscriber.terminate() }
        _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(60))
        try await pollUntil(timeout: .seconds(30), "the GStreamer subscriber to finish") { !subscriber.isRunning }
        #expect(subscriber.exitStatus == 0, "\(subscriber.stderr.suffix(2000))")
        #expect(player.isRunning, "agentd play ended early: \(player.stderr)")
        await player.terminate()
        #expect(player.exitStatus == 0, "agentd play did not stop cleanly on SIGTERM: \(player.stderr)")

        let summary = try GStreamerPeer.summary(out)
        print("GStreamerInterop: subscriber of agentd play: \(summary.text)")
        #expect(summary.string("video_codec") == codec && summary.string("audio_codec") == "opus", "\(summary.text)")
        // Half of 30 fps over the run: agentd answers the subscriber's PLI with a keyframe at
        // once, so nearly all frames decode; half leaves room for a loaded machine.
        let decoded = summary.int("video_frames")
        #expect(decoded >= 30 * seconds / 2, "\(decoded) frames decoded in \(seconds) s")
        #expect(summary.int("video_width") == 320 && summary.int("video_height") == 240, "\(summary.text)")
        #expect(summary.int("pipeline_warnings") == 0, "\(summary.text)")

        let (samples, rate) = try RecordingChecks.samples(out + "/audio.wav")
        #expect(rate == 48_000)
        let middle = samples.dropFirst(48_000).prefix(4 * 48_000)
        print("GStreamerInterop: subscriber's audio.wav: " + RecordingChecks.toneReport(middle))
        RecordingChecks.expectTone(middle, "the subscriber's audio.wav")
        // What arrived, re-muxed without re-encoding, decodes cleanly by an independent decoder.
        if let video {
            let errors = try await RecordingChecks.decodeErrors(video)
            #expect(errors.isEmpty, "\(errors.prefix(600))")
        }
    }

    @Test("a GStreamer H.264 publisher reaches a GStreamer subscriber through Janus", arguments: ["x264enc", "openh264enc"])
    func h264PublisherThroughJanus(encoder: String) async throws {
        try await SharedResourceLock.lab.withExclusive { try await h264ThroughJanus(encoder: encoder) }
    }

    private func h264ThroughJanus(encoder: String) async throws {
        let lab = try LabEnvironment.required()
        let scratch = try ScratchDirectory("gst-h264")
        let room = LabEnvironment.freshRoom("gst-h264")
        let seconds = 5
        let publisher = try await GStreamerPeer.publisher(lab, room: room, display: "h264", codec: "h264", h264Encoder: encoder,
                                                          roomVideoCodec: "vp8,h264")
        defer { publisher.terminate() }
        let out = scratch.path("subscriber")
        let video = out + "/video.mkv"
        let subscriber = try GStreamerPeer.subscriber(lab, room: room, feed: "h264", out: out, seconds: seconds, videoOut: video)
        defer { subscriber.terminate() }
        _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(60))
        try await pollUntil(timeout: .seconds(30), "the GStreamer subscriber to finish") { !subscriber.isRunning }
        #expect(subscriber.exitStatus == 0, "\(subscriber.stderr.suffix(2000))")
        #expect(publisher.isRunning, "the GStreamer publisher ended early: \(publisher.stderr)")
        // A child of the test runner starts with SIGTERM blocked; the peer unblocks it and
        // unpublishes, leaves and exits 0 instead of being killed 5 s later.
        await publisher.terminate()
        #expect(publisher.exitStatus == 0, "the GStreamer publisher did not stop cleanly on SIGTERM: \(publisher.stderr)")

        let summary = try GStreamerPeer.summary(out)
        print("GStreamerInterop: \(encoder) through Janus: \(summary.text)")
        #expect(summary.string("video_codec") == "h264", "\(summary.text)")
        let decoded = summary.int("video_frames")
        #expect(decoded >= 30 * seconds / 2, "\(decoded) H.264 frames decoded in \(seconds) s")
        #expect(summary.int("video_width") == 640 && summary.int("video_height") == 480, "\(summary.text)")
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                     "stream=codec_name,profile", "-of", "csv=p=0", video])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,Constrained Baseline", "\(probe.output)")
        let errors = try await RecordingChecks.decodeErrors(video)
        #expect(errors.isEmpty, "\(errors.prefix(600))")
        let (samples, _) = try RecordingChecks.samples(out + "/audio.wav")
        RecordingChecks.expectTone(samples.dropFirst(48_000).prefix(3 * 48_000), "the subscriber's audio.wav")
    }

    /// The path of the participant's file that the manifest says holds its video in `codec`.
    static func videoFile(manifest path: String, participant name: String, codec: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let participants = try #require(manifest["participants"] as? [[String: Any]])
        let files = participants.first { $0["name"] as? String == name }?["files"] as? [[String: Any]] ?? []
        let file = files.first { file in
            (file["tracks"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "video" && $0["codec"] as? String == codec }
        }
        return try #require(file?["path"] as? String, "no file of \(name) with \(codec) video in the manifest: \(String(decoding: data, as: UTF8.self))")
    }

    /// The half-scale 440 Hz tone, alone: 30 dB above 660 and 880 Hz, at its level.
}
