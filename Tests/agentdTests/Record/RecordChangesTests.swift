import Foundation
import TestSupport
import Testing

/// Issue 13's changes mid-stream, as real publishers make them (aiortc, through Janus): a
/// republish in another codec continues the participant in its next file part; a resolution
/// change stays in one file, listed in the manifest, and decodes clean across the change.
@Suite("RecordChanges", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordChangesTests {
    /// An aiortc publisher of 320x240 video and a tone for `seconds` in a fresh room it creates,
    /// READY; `changes` says what it changes when.
    static func publisher(_ lab: LabEnvironment, room: String, display: String, seconds: Int = 40, _ changes: [String] = []) async throws -> ChildProcess {
        let process = try ChildProcess(
            Repository.python,
            [Repository.peer("publisher.py"), "--ws", lab.janusWS, "--room", room, "--display", display, "--create",
             "--video", "320x240", "--duration", String(seconds)] + changes,
            name: "publisher \(display)")
        _ = try await process.waitForLine(prefix: "READY", within: .seconds(90))
        return process
    }

    /// Waits until the recording's file at `path` has held media for 4 s (and 40 kB of it): a part
    /// of 100-odd frames to check.
    static func waitForMedia(_ path: String, _ recording: ChildProcess) async throws {
        let size = { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        try await pollUntil(timeout: .seconds(60), "\(path) to be written") { size() > 0 || !recording.isRunning }
        let since = ContinuousClock.now
        try await pollUntil(timeout: .seconds(60), "\(path) to hold 4 s of media") {
            (ContinuousClock.now - since > .seconds(4) && size() > 40_000) || !recording.isRunning
        }
    }

    /// Issue 13's codec change, as a publisher makes it (aiortc has no VP9 encoder; a part per codec for any
    /// change is RoomRecorderH264Tests' unit test): aiortc unpublishes its VP8 and publishes
    /// again as H.264 on a new PeerConnection (same participant id). The participant continues:
    /// one participant, `switcher.webm` then `switcher.part2.mkv`, on one timeline.
    @Test("a publisher republishing VP8 as H.264 continues in <name>.part2.mkv: one participant, both parts decode clean, times in order")
    func republishContinuesInTheNextPart() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("republish")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-republish-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            // The switch comes when the recording holds seconds of VP8, and the recording stops when
            // it holds seconds of H.264: a loaded machine's slow start can't leave a part empty.
            let publisher = try await Self.publisher(
                lab, room: room, display: "switcher", seconds: 180, ["--republish-on-stdin", "--republish-codec", "h264"])
            defer { publisher.terminate() }
            let recording = try RecordH264Tests.record(lab, room: room, out: out, seconds: 120)
            defer { recording.terminate() }
            try await Self.waitForMedia(out + "/switcher.webm", recording)
            publisher.send(line: "republish")
            _ = try await publisher.waitForLine(prefix: "REPUBLISHED", within: .seconds(40))
            try await Self.waitForMedia(out + "/switcher.part2.mkv", recording)
            recording.send(signal: SIGINT)
            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            let participants = try RecordH264Tests.manifest(out)["participants"] as? [[String: Any]] ?? []
            let files = participants.flatMap { $0["files"] as? [[String: Any]] ?? [] }
            let paths = files.compactMap { $0["path"] as? String }
            print("RecordChanges: republish: participants \(participants.compactMap { $0["name"] as? String }), files \(paths)")
            #expect(participants.count == 1, "\(paths)")
            #expect(participants.first?["left_ms"] is NSNull, "an unpublish is not a leave")
            let parts = files.filter { ($0["format"] as? String) == "webm" }
            #expect(parts.compactMap { $0["path"] as? String } == ["switcher.webm", "switcher.part2.mkv"], "\(paths)")
            // The parts follow each other on the recording's timeline, with the video codec each holds:
            // the second starts after the first ended, or a little before (audio that came after the
            // first part's last, early video frames: the muxer's reorder window, 48 ms seen in CI).
            if parts.count == 2 {
                let first = (start: parts[0]["start_ms"] as? Int ?? -1, duration: parts[0]["duration_ms"] as? Int ?? -1)
                let second = parts[1]["start_ms"] as? Int ?? -1
                #expect(first.start >= 0 && first.duration > 3000, "\(parts)")
                #expect(second - (first.start + first.duration) >= -300, "\(parts)")
                let codecs = parts.map { part in
                    (part["tracks"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "video" }.compactMap { $0["codec"] as? String }
                }
                #expect(codecs == [["vp8"], ["h264"]], "\(codecs)")
            }
            for path in paths where path.hasSuffix(".webm") || path.hasSuffix(".mkv") {
                let errors = try await RecordingChecks.decodeErrors(out + "/" + path)
                #expect(errors.isEmpty, "\(path): \(errors.prefix(400))")
                let frames = try await RecordingChecks.videoFrames(out + "/" + path)
                #expect(frames >= 60, "\(path): \(frames) video frames")
            }
        }
    }

    /// aiortc restarts its encoder on a new picture size, so the change comes as a keyframe of
    /// the new size (VP8's frame header, H.264's new SPS in band).
    @Test("a publisher that changes resolution mid-recording: one file that decodes clean, the change listed with its time",
          arguments: ["vp8", "h264"])
    func resolutionChangeStaysInOneFile(codec: String) async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("resize")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-resize-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let publisher = try await Self.publisher(
                lab, room: room, display: "sizer", ["--video-codec", codec, "--resize-after", "5", "--resize-to", "176x144"])
            defer { publisher.terminate() }
            let recording = try RecordH264Tests.record(lab, room: room, out: out, seconds: 10)
            defer { recording.terminate() }
            _ = try await publisher.waitForLine(prefix: "RESIZED", within: .seconds(40))
            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            let participant = try #require((try RecordH264Tests.manifest(out)["participants"] as? [[String: Any]])?.first)
            let files = (participant["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
            let video = codec == "h264" ? "sizer.mkv" : "sizer.webm"
            #expect(files.filter { $0.hasSuffix(".webm") || $0.hasSuffix(".mkv") } == [video], "\(files)")
            let changes = participant["resolution_changes"] as? [[String: Any]] ?? []
            print("RecordChanges: \(codec) resize: \(changes)")
            #expect(changes.count == 1, "\(changes)")
            if let change = changes.first {
                #expect(change["width"] as? Int == 176 && change["height"] as? Int == 144, "\(change)")
                // Sent about 5 s after READY; the recording started after READY.
                let at = change["t_ms"] as? Int ?? -1
                #expect(at > 1000 && at < 9000, "\(change)")
            }
            let errors = try await RecordingChecks.decodeErrors(out + "/" + video)
            #expect(errors.isEmpty, "\(video): \(errors.prefix(400))")
            // Every frame on both sides of the change decodes: about 30 fps for 10 s.
            let frames = try await RecordingChecks.videoFrames(out + "/" + video)
            #expect(frames >= 240, "\(video): \(frames) frames")
        }
    }
}
