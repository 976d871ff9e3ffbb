import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// The room-wide formats of a continued recording: room.webm (composite) and the transcript go
/// on in their own next parts, from the run's start on the first run's timeline.
@Suite(.offThePool) struct RoomRecorderContinuationCompositeTests {
    static let formats = RecordingFormats([.composite, .transcript])

    /// Alice's tone and pictures from `fromMs` to `toMs`, recorded by a recorder started at `startMs`.
    static func run(in directory: TestDirectory, fromMs: Int64, toMs: Int64, continuing: Bool) async throws -> RecordingManifest {
        var script = RoomEventScript()
        script.join("1", "Alice", atMs: Double(fromMs))
        try script.audio("1", frequency: 440, fromMs: Double(fromMs), toMs: Double(toMs) - 500, rtpBase: fromMs * 48)
        let frames = Int((toMs - fromMs) * 30 / 1000)
        script.video("1", frames: try RoomEventScript.encodeVideo(count: frames, width: 160, height: 120), fromMs: Double(fromMs), rtpBase: fromMs * 90)
        let recorder = try RoomRecorder(
            directory: RecordingDirectory(path: directory.path), room: "demo", server: "ws://x/", formats: formats,
            startedAt: RoomEventScript.date(ms: fromMs), queueCapacity: 100_000,
            composite: try CompositeSettings(width: 160, height: 120, framesPerSecond: 10),
            recognizer: { RoomTranscriberTests.EdgeRecognizer() }, continuing: continuing)
        for event in script.events { recorder.submit(event) }
        let manifest = await recorder.stop(endedAt: RoomEventScript.date(ms: toMs))
        #expect(recorder.outputError == nil, "\(String(describing: recorder.outputError))")
        return manifest
    }

    @Test("room.part2.webm from the run's start, decoding clean; transcript.part2.jsonl and captions.part2.vtt on the timeline")
    func compositeAndTranscriptContinue() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        _ = try await Self.run(in: directory, fromMs: 0, toMs: 3000, continuing: false)
        let room = try Data(contentsOf: URL(fileURLWithPath: directory.file("room.webm")))
        let manifest = try await Self.run(in: directory, fromMs: 10_000, toMs: 13_000, continuing: true)

        #expect(manifest.files.map(\.path) == ["room.webm", "transcript.jsonl", "captions.vtt",
                                               "room.part2.webm", "transcript.part2.jsonl", "captions.part2.vtt"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("room.webm"))) == room)
        let part = try #require(manifest.files.first { $0.path == "room.part2.webm" })
        #expect(part.startMs == 10_000 && abs((part.durationMs ?? 0) - 3000) <= 100, "\(part)")
        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", directory.file("room.part2.webm"), "-f", "null", "-"])
        #expect(decode.status == 0 && decode.errors.isEmpty, "\(decode.errors.prefix(300))")
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                           directory.file("room.part2.webm")])
        let seconds = Double(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(abs(seconds - 3) < 0.2, "room.part2.webm lasts \(seconds) s")
        #expect(manifest.files.filter { $0.format == "transcript" }.suffix(2).allSatisfy { $0.startMs == 10_000 })
        let transcript = try String(contentsOfFile: directory.file("transcript.part2.jsonl"), encoding: .utf8)
        let starts = transcript.split(separator: "\n").compactMap { line -> Int64? in
            guard let range = line.range(of: #""start_ms":"#) else { return nil }
            return Int64(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(!starts.isEmpty && starts.allSatisfy { $0 >= 10_000 && $0 < 13_000 }, "\(transcript)")
        #expect(FileManager.default.fileExists(atPath: directory.file("captions.part2.vtt")))
    }
}
