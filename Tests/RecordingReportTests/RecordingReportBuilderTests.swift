import Agent
import Foundation
import Recorder
import TestSupport
import Testing

@testable import RecordingReport

@Suite(.offThePool) struct RecordingReportBuilderTests {
    static let startedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// A directory with a manifest of one participant and their WAV of `pattern`.
    static func directory(_ pattern: SpeechPattern, scratch: ScratchDirectory) throws -> String {
        let out = scratch.path("rec")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let writer = try SoundFileWriter(path: out + "/Alice.wav")
        try writer.write(pattern.samples)
        try writer.close()
        var manifest = RecordingManifest(room: "demo", server: "ws://10.77.0.2:8188/", startedAt: startedAt, formats: ["wav"],
                                         state: .finished)
        manifest.durationMs = Int64(pattern.totalMs)
        manifest.endedAt = startedAt.addingTimeInterval(Double(pattern.totalMs) / 1000)
        var alice = RecordingManifest.Participant(
            id: "1", display: "Alice", name: "Alice", joinedMs: 0,
            files: [.init(path: "Alice.wav", format: "wav", startMs: 0, tracks: [.init(kind: .audio, codec: "pcm_s16le")])],
            stats: .init(audio: .init(packets: 475, lost: 25, nacks: 3), video: .init()))
        alice.gaps = [.init(kind: .audio, startMs: 2000, endMs: 2600, reason: "silence"),
                      .init(kind: .audio, startMs: 0, endMs: 500, reason: "not_joined")]
        manifest.participants = [alice]
        manifest.gaps = [.init(startMs: 6000, endMs: 6500, attempts: 1)]
        try manifest.encodedJSON().write(to: URL(fileURLWithPath: out + "/manifest.json"))
        return out
    }

    @Test("report.json from a directory: speaking time and intervals from the WAV, stats, presence, gaps")
    func reportsADirectory() throws {
        let scratch = try ScratchDirectory("report")
        let pattern = SpeechPattern(on: [(500, 2000), (2600, 4100), (7250, 9900)], totalMs: 10_000)
        let out = try Self.directory(pattern, scratch: scratch)
        let document = try RecordingReportBuilder(directory: out).build()
        try RecordingReportWriter.write(document, to: out)

        let report = try JSONDecoder().decode(RecordingReport.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        #expect(report == document.report)
        #expect(report.durationMs == 10_000 && report.room == "demo" && report.state == "finished")
        #expect(report.reconnects == 1 && report.connectionGaps.count == 1)
        let alice = try #require(report.participants.first)
        #expect(abs(alice.speakingMs - Int64(pattern.onMs)) <= 500, "\(alice.speakingMs)")
        #expect(alice.speaking.count == 3)
        #expect(alice.presentMs == 10_000 && alice.leftMs == nil)
        #expect(alice.audioLossPercent == 5 && alice.audio.nacks == 3)
        #expect(alice.videoFrames == nil && alice.avSync == "no_video" && alice.avOffsetMs == nil)
        #expect(alice.audioGaps == [.init(startMs: 2000, endMs: 2600)], "not_joined is not a stream's gap")
        #expect(alice.notes.isEmpty, "\(alice.notes)")
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.contains("Alice"))
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "temporary files left: \(names)")
    }

    @Test("--segment parts: each WAV at its start_ms, an utterance across the cut is one interval")
    func segmentedWAVs() throws {
        let scratch = try ScratchDirectory("report-parts")
        let out = scratch.path("rec")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let parts = [("Alice.wav", SpeechPattern(on: [(1000, 5000)], totalMs: 5000)),
                     ("Alice.part2.wav", SpeechPattern(on: [(0, 1500), (2000, 3000)], totalMs: 5000))]
        for (name, pattern) in parts {
            let writer = try SoundFileWriter(path: out + "/" + name)
            try writer.write(pattern.samples)
            try writer.close()
        }
        var manifest = RecordingManifest(room: "demo", server: "s", startedAt: Self.startedAt, state: .finished)
        manifest.durationMs = 10_000
        manifest.participants = [.init(id: "1", display: "Alice", name: "Alice", joinedMs: 0, files: [
            .init(path: "Alice.wav", format: "wav", startMs: 0, durationMs: 5000),
            .init(path: "Alice.part2.wav", format: "wav", startMs: 5000, durationMs: 5000),
        ])]
        let alice = try #require(RecordingReportBuilder(directory: out).build(manifest: manifest).report.participants.first)
        #expect(alice.speaking.count == 2, "\(alice.speaking)")
        #expect(abs(alice.speakingMs - 6500) <= 100, "\(alice.speakingMs)")
        for (span, want) in zip(alice.speaking, [(1000, 6500), (7000, 8000)] as [(Int64, Int64)]) {
            #expect(abs(span.startMs - want.0) <= 50 && abs(span.endMs - want.1) <= 50, "\(span) for \(want)")
        }
    }

    @Test("a missing directory, one without a manifest, garbage, a newer version and an oversized manifest are typed errors")
    func badDirectories() throws {
        let scratch = try ScratchDirectory("report-bad")
        #expect(throws: RecordingReportError.notADirectory(scratch.path("nope"))) {
            try RecordingReportBuilder(directory: scratch.path("nope")).build()
        }
        let empty = scratch.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        #expect(throws: RecordingReportError.noManifest(empty)) { try RecordingReportBuilder(directory: empty).build() }

        let manifest = empty + "/manifest.json"
        for (bytes, fragment) in [("not json", "not a recording manifest"), (#"{"version": 1, "room": "r"}"#, "no key server"),
                                  (#"{"version": 2, "room": "r", "server": "s", "started_at": "2026-12-04T18:00:00Z", "ended_at": null, "participants": []}"#, "version 2")] {
            try Data(bytes.utf8).write(to: URL(fileURLWithPath: manifest))
            do {
                _ = try RecordingReportBuilder(directory: empty).build()
                Issue.record("\(bytes) was read")
            } catch {
                #expect("\(error)".contains(fragment), "\(error)")
            }
        }
        // A sparse file beyond the limit is refused without reading it all.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: manifest))
        try handle.truncate(atOffset: UInt64(RecordingReportBuilder.manifestLimit + 4096))
        try handle.close()
        #expect(throws: RecordingReportError.manifestTooLarge(path: manifest, limit: RecordingReportBuilder.manifestLimit)) {
            try RecordingReportBuilder(directory: empty).build()
        }
    }

    @Test("a hostile manifest: extreme times, paths out of the directory, a FIFO and a garbage WAV become notes, never a trap or a hang")
    func hostileManifest() throws {
        let scratch = try ScratchDirectory("report-hostile")
        let out = scratch.path("rec")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try Data("RIFF garbage".utf8).write(to: URL(fileURLWithPath: out + "/b.wav"))
        #expect(mkfifo(out + "/c.wav", 0o644) == 0)
        let wav = { (path: String) in RecordingManifest.File(path: path, format: "wav", startMs: 0) }
        let video = { (path: String, start: Int64) in
            RecordingManifest.File(path: path, format: "webm", startMs: start, tracks: [.init(kind: .video, codec: "vp8")])
        }
        var manifest = RecordingManifest(room: "r", server: "s", startedAt: Self.startedAt)
        manifest.durationMs = .max
        manifest.participants = [
            .init(id: "1", display: "A", name: "A", joinedMs: .min, leftMs: .max, files: [wav("../../etc/passwd"), video("/dev/zero", .max)],
                  stats: .init(audio: .init(packets: .max, lost: .max, nacks: .max), video: .init(nacks: .max))),
            .init(id: "2", display: "B", name: "B", joinedMs: .max, files: [wav("b.wav"), video("b.webm", .min)]),
            .init(id: "3", display: "C", name: "C", joinedMs: 0, files: [wav("c.wav"), video("c.wav", 0)]),
        ]
        manifest.participants[1].gaps = [.init(kind: .video, startMs: .min, endMs: .max, reason: "loss")]
        manifest.gaps = [.init(startMs: .max, endMs: .min, attempts: .max)]
        let document = RecordingReportBuilder(directory: out).build(manifest: manifest)
        let report = document.report
        #expect(report.participants.count == 3)
        #expect(report.participants[0].notes.count == 2, "\(report.participants[0].notes)")
        #expect(report.participants[0].nacks == .max)
        #expect(report.participants[1].freezeMs == .max, "the manifest's video gap stands in for the unreadable WebM")
        #expect(report.participants[2].notes.contains { $0.contains("not a regular file") }, "\(report.participants[2].notes)")
        let html = RecordingReportWriter.html(document)
        #expect(html.contains("participant-row"))
        #expect(!ReportSummary.lines(report).isEmpty)
    }
}
