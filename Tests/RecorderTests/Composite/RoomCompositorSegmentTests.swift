import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// room.webm with `--segment`: cut into parts on the frame grid at each boundary, each part
/// starting with a keyframe, playable on its own, and listed in the manifest end to end.
@Suite(.offThePool) struct RoomCompositorSegmentTests {
    @Test func partsAreCutAtEachBoundaryAndPlayOnTheirOwn() async throws {
        var script = RoomEventScript()
        script.join("1", "Red", atMs: 0)
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 3500, senderReportFrom: 0)
        script.video("1", frames: try RoomCompositorTests.solidVideo(RoomCompositorTests.red, count: 105), fromMs: 0)
        let directory = try TestDirectory()
        defer { directory.remove() }
        let settings = try CompositeSettings(width: 320, height: 180, framesPerSecond: 15)
        let recorder = try RoomRecorder(directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://10.77.0.2:8188/",
                                        formats: RecordingFormats([.composite]), startedAt: RoomEventScript.startedAt, queueCapacity: 100_000,
                                        segments: RecordingSegments(seconds: 1), composite: settings)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 3500))
        #expect(recorder.outputError == nil)

        let parts = manifest.files.filter { $0.format == "composite" }
        #expect(parts.map(\.path) == ["room.webm", "room.part2.webm", "room.part3.webm", "room.part4.webm"])
        #expect(parts.map(\.startMs) == [0, 1000, 2000, 3000])
        for (part, next) in zip(parts, parts.dropFirst()) {
            #expect(part.endMs == next.startMs, "\(part.path) ends where \(next.path) starts")
        }
        #expect(parts.last?.endMs.map { abs($0 - 3500) <= 70 } == true, "\(String(describing: parts.last?.endMs))")
        #expect(parts.allSatisfy { $0.error == nil && ($0.bytes ?? 0) > 0 })

        for part in parts {
            let path = directory.file(part.path)
            let webm = try await RoomRecorderTests.inspectWebM(path)
            #expect(webm.streams == ["opus", "vp8,320,180"], "\(part.path)")
            #expect(webm.decodeErrors == "", "\(part.path)")
            // Each part opens on a keyframe at its own t=0 and shows Red throughout.
            let keys = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                              "frame=key_frame,best_effort_timestamp_time", "-of", "csv=p=0", path])
                .output.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
            #expect(keys.first == ["1", "0.000000"], "\(part.path): first frame \(String(describing: keys.first))")
            let expectedFrames = part.path == "room.part4.webm" ? 8 : 15
            #expect(abs(keys.count - expectedFrames) <= 1, "\(part.path): \(keys.count) frames")
            let frames = try await RoomCompositorTests.decodedFrames(path, width: 320, height: 180)
            let layout = TileLayout(layout: .grid, canvasWidth: 320, canvasHeight: 180, participants: ["Red"], speaker: nil)
            let tile = try #require(layout.tile(named: "Red")).region
            if let last = frames.last {
                try RoomCompositorTests.expectColour(last.frame, RoomCompositorTests.pictureCentre(in: tile), RoomCompositorTests.red,
                                                     "\(part.path)'s last picture")
            }
            // The mix's tone is in every part.
            let pcm = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:a", "-f", "s16le", "-ac", "1",
                                                            "-ar", "48000", "-"]).data
            let samples: [Int16] = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            let seconds = Double(samples.count) / 48_000
            #expect(abs(seconds * 1000 - Double(part.durationMs ?? 0)) <= 60, "\(part.path): \(seconds) s of audio")
            #expect(goertzel(samples.dropFirst(4800).prefix(9600), frequency: 440) > 1000, "\(part.path) has the tone")
        }
    }

    @Test("a recording that ends on a boundary with media in flight past it leaves no sliver of a part beyond the end")
    func noPartPastTheEnd() async throws {
        var script = RoomEventScript()
        script.join("1", "Red", atMs: 0)
        // Media runs to 3.2 s; the recording stops at 3.0 s, a boundary of --segment 1.
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 3200, senderReportFrom: 0)
        script.video("1", frames: try RoomCompositorTests.solidVideo(RoomCompositorTests.red, count: 96), fromMs: 0)
        let directory = try TestDirectory()
        defer { directory.remove() }
        let recorder = try Self.recorder(in: directory, formats: [.composite, .ogg], segments: RecordingSegments(seconds: 1))
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 3000))
        let room = manifest.files.filter { $0.format == "composite" }
        #expect(room.map(\.path) == ["room.webm", "room.part2.webm", "room.part3.webm"], "\(room.map(\.path))")
        #expect(room.last?.endMs.map { abs($0 - 3000) <= 70 } == true, "\(String(describing: room.last?.endMs))")
        let ogg = manifest.participants.flatMap(\.files).filter { $0.format == "ogg" }
        #expect(ogg.count == 3 && ogg.allSatisfy { $0.startMs < 3000 }, "\(ogg.map { ($0.path, $0.startMs) })")
        for name in ["room.part4.webm", "Red.part4.opus"] {
            #expect(!FileManager.default.fileExists(atPath: directory.file(name)), "\(name) was left behind")
        }
        for file in room + ogg {
            let errors = try await RoomRecorderTests.inspectWebM(directory.file(file.path)).decodeErrors
            #expect(errors.isEmpty, "\(file.path): \(errors)")
        }
    }

    @Test("media composited past the stop is not in room.webm: it ends where the recording does")
    func nothingPastTheEnd() async throws {
        var script = RoomEventScript()
        script.join("1", "Red", atMs: 0)
        // Media runs to 3.6 s, all of it composited before the stop at 3.0 s comes (a loaded
        // machine's compositor ran 120 ms past the end in one CI run, and room.webm kept it).
        try script.audio("1", frequency: 440, fromMs: 0, toMs: 3600, senderReportFrom: 0)
        script.video("1", frames: try RoomCompositorTests.solidVideo(RoomCompositorTests.red, count: 108), fromMs: 0)
        let directory = try TestDirectory()
        defer { directory.remove() }
        let recorder = try Self.recorder(in: directory, formats: [.composite], segments: nil)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: 3000))
        let room = try #require(manifest.files.first { $0.format == "composite" })
        #expect(room.endMs.map { $0 <= 3000 && $0 >= 2930 } == true, "\(String(describing: room.endMs))")
        let duration = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                              directory.file("room.webm")]).output
        let seconds = try #require(Double(duration.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(seconds <= 3.03, "room.webm lasts \(seconds) s for a 3 s recording")
    }

    /// A recorder of `formats` into `directory`, the composite at 320x180, 15 fps.
    static func recorder(in directory: TestDirectory, formats: Set<RecordingFormats.Format>, segments: RecordingSegments?) throws -> RoomRecorder {
        try RoomRecorder(directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://10.77.0.2:8188/",
                         formats: RecordingFormats(formats), startedAt: RoomEventScript.startedAt, queueCapacity: 100_000,
                         segments: segments, composite: try CompositeSettings(width: 320, height: 180, framesPerSecond: 15))
    }
}
