import Agent
import Foundation
import Recorder
import Testing

@testable import RecordingReport

@Suite struct ReportPageTests {
    static let hostileName = #"<script>alert("x")</script> & 'Bob'"#

    static func participant(_ name: String, display: String, joinedMs: Int64 = 0, leftMs: Int64? = nil,
                            speaking: [TimelineSpan] = [], freezes: [TimelineSpan] = []) -> ParticipantReport {
        var report = ParticipantReport(
            id: name, display: display, name: name, joinedMs: joinedMs, leftMs: leftMs, presentMs: 0, speech: nil,
            stats: .init(audio: .init(packets: 950, lost: 50)), videoScan: nil,
            avOffsetMs: nil, avSync: "no_video", notes: ["a <note>"])
        report.speaking = speaking
        report.freezes = freezes
        return report
    }

    static var document: ReportDocument {
        let report = RecordingReport(
            room: "demo<1>", state: "finished", startedAt: "2026-12-04T18:00:00.000Z", endedAt: "2026-12-04T18:00:20.000Z",
            durationMs: 20_000,
            participants: [
                participant("Alice", display: "Alice", speaking: [.init(startMs: 1000, endMs: 4000)]),
                participant("script_alert_x_script_Bob_", display: hostileName, joinedMs: 5000, leftMs: 15_000,
                            freezes: [.init(startMs: 6000, endMs: 7000)]),
                participant("Carol", display: "Carol", joinedMs: 10_000),
            ],
            connectionGaps: [.init(startMs: 8000, endMs: 9500, attempts: 2)])
        return ReportDocument(report: report, thumbnails: ["Alice": [0x89, 0x50, 0x4E, 0x47]])
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("names and notes are escaped everywhere: no markup of theirs reaches the page")
    func namesAreEscaped() {
        let html = RecordingReportWriter.html(Self.document)
        #expect(!html.contains("<script"))
        #expect(!html.contains(Self.hostileName))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Bob&#39;"))
        #expect(html.contains("demo&lt;1&gt;"))
        #expect(html.contains("a &lt;note&gt;"))
        #expect(HTMLText.escape("a\u{1B}[2Jb\u{0}") == "a\u{FFFD}[2Jb\u{FFFD}")
    }

    @Test("one timeline row per participant, each with its name as text; marks for speech, freezes, the gap and the reconnect")
    func oneRowPerParticipant() {
        let svg = ReportTimeline(report: Self.document.report).svg
        #expect(Self.count(#"<g class="participant-row""#, in: svg) == 3)
        for name in ["Alice", "Carol", "&lt;script&gt;"] {
            #expect(svg.contains(#"<text class="name""#) && svg.contains(name), "\(name)")
        }
        #expect(Self.count(#"<rect class="present""#, in: svg) == 3)
        #expect(Self.count(#"<rect class="speaking""#, in: svg) == 1)
        #expect(Self.count(#"<rect class="freeze""#, in: svg) == 1)
        #expect(Self.count(#"<rect class="gap""#, in: svg) == 1)
        #expect(Self.count(#"<line class="reconnect""#, in: svg) == 1)
        // Alice spoke 1-4 s of 20 s: x from 170 + 0.05 * 820 = 211 to 170 + 0.2 * 820 = 334.
        #expect(svg.contains(#"<rect class="speaking" x="211.0" y="35.0" width="123.0""#), "\(svg)")
    }

    @Test("the page is self-contained: no script, nothing fetched, thumbnails as data: URIs")
    func selfContained() {
        let html = RecordingReportWriter.html(Self.document)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("@import") && !html.contains("url("))
        #expect(!html.contains("src=\"http") && !html.contains("href="))
        #expect(html.contains(#"src="data:image/png;base64,iVBORw==""#))
        #expect(Self.count(#"class="nothumb""#, in: html) == 2)
        #expect(html.contains("Content-Security-Policy"))
    }

    @Test("times far outside the recording stay on the picture and do not trap")
    func hostileTimes() {
        var document = Self.document
        document.report.durationMs = .max
        document.report.participants[0].speaking = [.init(startMs: .min, endMs: .max)]
        document.report.participants[1].joinedMs = .max
        let svg = ReportTimeline(report: document.report).svg
        #expect(svg.contains(#"class="speaking" x="170.0""#))
        #expect(!svg.contains("nan") && !svg.contains("inf"))
        #expect(ReportTimeline.tickStep(durationMs: .max) > 0)
    }
}
