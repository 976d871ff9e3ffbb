import Foundation
import TestSupport
import Testing

/// `--segment` against a real publisher (aiortc through Janus): every file in parts that decode
/// on their own, the WebM cut at the keyframe the recorder asked for, the manifest's times continuous.
@Suite("RecordSegments", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordSegmentsTests {
    @Test("--segment 5 on a 17 s recording: 4 parts per file, each decoding clean, start/end continuous in the manifest")
    func fourPartsPerFile() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let room = LabEnvironment.freshRoom("segments")
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-segments-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let publisher = try await RecordChangesTests.publisher(lab, room: room, display: "cutter", seconds: 60)
            defer { publisher.terminate() }
            let recording = try RecordLimitsTests.record(
                lab, room: room, out: out, ["--segment", "5", "--duration", "17", "--formats", "webm,wav,ogg,mix,composite",
                                           "--composite-size", "320x180"])
            defer { recording.terminate() }
            try await pollUntil(timeout: .seconds(40), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")
            let manifest = try RecordH264Tests.manifest(out)
            let participant = try #require((manifest["participants"] as? [[String: Any]])?.first)
            let files = participant["files"] as? [[String: Any]] ?? []
            let roomFiles = manifest["files"] as? [[String: Any]] ?? []
            func parts(_ list: [[String: Any]], _ format: String) -> [[String: Any]] { list.filter { $0["format"] as? String == format } }
            func times(_ list: [[String: Any]]) -> [(path: String, start: Int, end: Int)] {
                list.map { ($0["path"] as? String ?? "?", $0["start_ms"] as? Int ?? -1, $0["end_ms"] as? Int ?? -1) }
            }
            for format in ["webm", "wav", "ogg"] {
                print("RecordSegments: \(format): \(times(parts(files, format)))")
            }
            print("RecordSegments: mix: \(times(parts(roomFiles, "mix")))")
            print("RecordSegments: composite: \(times(parts(roomFiles, "composite")))")
            #expect(parts(files, "webm").compactMap { $0["path"] as? String } == ["cutter.webm", "cutter.part2.webm", "cutter.part3.webm", "cutter.part4.webm"])
            // WAVs (the participant's and the mix) exactly at the boundaries, to the recording's end.
            let duration = manifest["duration_ms"] as? Int ?? -1
            for wavs in [parts(files, "wav"), parts(roomFiles, "mix")] {
                #expect(times(wavs).map(\.start) == [0, 5000, 10_000, 15_000], "\(times(wavs))")
                #expect(times(wavs).map(\.end) == [5000, 10_000, 15_000, duration], "\(times(wavs))")
            }
            #expect(parts(files, "ogg").count == 4)
            // room.webm is cut on its own frame grid, exactly at the boundaries.
            let composite = times(parts(roomFiles, "composite"))
            #expect(composite.map(\.path) == ["room.webm", "room.part2.webm", "room.part3.webm", "room.part4.webm"])
            #expect(composite.map(\.start) == [0, 5000, 10_000, 15_000], "\(composite)")
            #expect(zip(composite, composite.dropFirst()).allSatisfy { $0.end == $1.start }, "\(composite)")
            #expect(abs((composite.last?.end ?? 0) - duration) <= 100, "\(composite) for \(duration) ms")
            // WebM and Opus parts follow each other: no gap over 100 ms (a part may overlap the one
            // before by what the muxer's reorder window held, video arriving behind audio).
            for format in ["webm", "ogg"] {
                let list = times(parts(files, format))
                for (earlier, later) in zip(list, list.dropFirst()) {
                    #expect((-300...100).contains(later.start - earlier.end), "\(format): \(earlier) then \(later)")
                }
            }
            // The WebM cuts at the keyframe the recorder asked for at the boundary: Janus passes
            // a PLI on at most once a second, so within 2.5 s (about 100 ms on a quiet machine).
            for (index, part) in times(parts(files, "webm")).enumerated().dropFirst() {
                #expect(part.start >= index * 5000 && part.start < index * 5000 + 2500, "\(part) is not at its boundary")
            }
            for file in files + roomFiles {
                guard let path = file["path"] as? String else { continue }
                let errors = try await RecordingChecks.decodeErrors(out + "/" + path)
                #expect(errors.isEmpty, "\(path): \(errors.prefix(400))")
            }
            // Each WebM part is a file with its own video, starting at a keyframe: about 30 fps
            // for the part's length (25 at least).
            for part in times(parts(files, "webm")) {
                let frames = try await RecordingChecks.videoFrames(out + "/" + part.path)
                #expect(frames * 1000 >= (part.end - part.start) * 25, "\(part): \(frames) frames")
            }
        }
    }
}
