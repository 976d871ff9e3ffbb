import Foundation
import Recorder
import RecordingReport

extension FuzzTarget {
    /// The manifest of a directory handed to `agentd report`: bytes decoded as a manifest, then
    /// the report built over it (its media absent, so every file becomes a note), rendered as the
    /// page, the summary and report.json. A manifest may claim any time, count or path: nothing
    /// traps, every participant gets its one timeline row, and no text of theirs is markup.
    public static let recordingReport = FuzzTarget(
        name: "recording-report", summary: "RecordingReportBuilder over a decoded manifest: times, counts, paths; the page, summary and JSON",
        maxInputLength: 16_384
    ) { bytes in
        guard let manifest = try? RecordingManifest.decode(Data(bytes)) else { return }
        let document = RecordingReportBuilder(directory: "/nonexistent/agentd-fuzz-report").build(manifest: manifest)
        let reported = min(manifest.participants.count, RecordingReportBuilder.maxParticipants)
        FuzzCheck.expect(document.report.participants.count == reported, "participants lost")
        let html = RecordingReportWriter.html(document)
        let rows = html.components(separatedBy: #"<g class="participant-row""#).count - 1
        FuzzCheck.expect(rows == reported, "\(rows) rows for \(reported) participants")
        FuzzCheck.expect(!html.contains("<script"), "markup from the manifest reached the page")
        _ = ReportSummary.lines(document.report)
        FuzzCheck.expect((try? document.report.encodedJSON()) != nil, "report.json does not encode")
    }
}
