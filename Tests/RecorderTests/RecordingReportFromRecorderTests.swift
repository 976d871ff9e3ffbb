import Agent
import Foundation
import RecordingReport
import TestSupport
import Testing

@testable import Recorder

/// The QA report of a directory RoomRecorder really wrote: two participants whose tones sound
/// on a known on/off pattern (packets only while on, as a sender with DTX sends), one of whom
/// joins late, leaves early and has a second of video missing.
@Suite(.offThePool) struct RecordingReportFromRecorderTests {
    typealias Pattern = [(fromMs: Double, toMs: Double)]
    static let alice: Pattern = [(500, 2500), (3500, 6000), (7000, 9500)]
    static let bob: Pattern = [(2500, 4500), (5000, 7500)]

    static func sound(_ pattern: Pattern, _ id: String, frequency: Double, rtpBase: Int64, into script: inout RoomEventScript) throws {
        for on in pattern {
            try script.audio(id, frequency: frequency, fromMs: on.fromMs, toMs: on.toMs, rtpBase: rtpBase + Int64(on.fromMs) * 48)
        }
    }

    static func total(_ pattern: Pattern) -> Int64 { Int64(pattern.reduce(0) { $0 + $1.toMs - $1.fromMs }) }

    @Test("speaking times within 0.5 s of the tone pattern, Bob's frozen second, presence, thumbnails that decode")
    func reportOfARecording() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        var script = RoomEventScript()
        script.join("1", "Alice", atMs: 0)
        try Self.sound(Self.alice, "1", frequency: 440, rtpBase: 12_345, into: &script)
        script.video("1", frames: try RoomEventScript.encodeVideo(count: 300), fromMs: 0)
        script.join("2", "Bob <b>", atMs: 2000)
        try Self.sound(Self.bob, "2", frequency: 660, rtpBase: 4_000_000, into: &script)
        // Video 2.0-4.0 s, nothing until 5.0 s, then on to 8.0 s from a keyframe.
        script.video("2", frames: try RoomEventScript.encodeVideo(count: 60), fromMs: 2000, rtpBase: 1 << 20)
        script.video("2", frames: try RoomEventScript.encodeVideo(count: 90), fromMs: 5000, rtpBase: (1 << 20) + 3000 * 90)
        script.leave("2", atMs: 8000)
        var statistics = ReceiveStreamStatistics()
        statistics.packets = 495
        statistics.lost = 5
        statistics.nacks = 4
        script.add(.statistics(participantID: "1", kind: .audio, statistics), atMs: 9000)

        let recorder = try RoomRecorderTests.makeRecorder(directory, formats: RecordingFormats([.webm, .wav]))
        for event in script.events { recorder.submit(event) }
        _ = await recorder.stop(endedAt: RoomEventScript.date(ms: 10_000))

        let document = try RecordingReportBuilder(directory: directory.path).build()
        try RecordingReportWriter.write(document, to: directory.path)
        let report = document.report
        #expect(report.durationMs == 10_000)
        let alice = try #require(report.participants.first { $0.display == "Alice" })
        let bob = try #require(report.participants.first { $0.display == "Bob <b>" })

        #expect(abs(alice.speakingMs - Self.total(Self.alice)) <= 500, "Alice spoke \(alice.speakingMs) ms: \(alice.speaking)")
        #expect(abs(bob.speakingMs - Self.total(Self.bob)) <= 500, "Bob spoke \(bob.speakingMs) ms: \(bob.speaking)")
        #expect(alice.speaking.count == 3, "\(alice.speaking)")
        #expect(bob.speaking.count == 2, "\(bob.speaking)")
        for (span, on) in zip(alice.speaking, Self.alice) {
            #expect(abs(Double(span.startMs) - on.fromMs) <= 100 && abs(Double(span.endMs) - on.toMs) <= 100, "\(span) for \(on)")
        }

        #expect(alice.presentMs == 10_000)
        #expect(bob.joinedMs == 2000 && bob.leftMs == 8000 && bob.presentMs == 6000)
        // No audio between his two tone bursts and after the second one, until he left.
        #expect(bob.audioGaps == [.init(startMs: 4500, endMs: 5000), .init(startMs: 7500, endMs: 8000)], "\(bob.audioGaps)")
        #expect(alice.videoFrames == 300 && alice.freezes.isEmpty, "\(alice.freezes)")
        #expect(bob.videoFrames == 150)
        #expect(bob.freezes.count == 1, "\(bob.freezes)")
        // The last frame before the gap is at 2000 + 59/30 s = 3967 ms; the next at 5000 ms.
        #expect(abs(bob.freezeMs - 1033) <= 50, "\(bob.freezes)")
        #expect(alice.audio.lost == 5 && alice.audioLossPercent == 1 && alice.nacks == 4, "\(alice.audio)")
        print("report: Alice spoke \(alice.speakingMs) ms of \(Self.total(Self.alice)) in \(alice.speaking); Bob \(bob.speakingMs) ms of "
              + "\(Self.total(Self.bob)) in \(bob.speaking), froze \(bob.freezes)")

        for participant in [alice, bob] {
            let png = try #require(document.thumbnails[participant.name], "no thumbnail of \(participant.name)")
            let path = directory.file("\(participant.name)-thumb.png")
            try Data(png).write(to: URL(fileURLWithPath: path))
            let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", path])
            #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "png,160,120", "\(probe.output) \(probe.errors)")
        }
        let html = try String(contentsOfFile: directory.file("report.html"), encoding: .utf8)
        #expect(html.contains("Bob &lt;b&gt;") && !html.contains("Bob <b>"))
        #expect(html.components(separatedBy: #"<g class="participant-row""#).count - 1 == 2)
        #expect(FileManager.default.fileExists(atPath: directory.file("report.json")))
    }
}
