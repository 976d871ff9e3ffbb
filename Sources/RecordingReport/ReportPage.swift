import Foundation
import Recorder

/// report.html: the report as one page that needs nothing else, so it can be mailed or opened
/// from a disk: the CSS is inline, the thumbnails are data: URIs, there is no script, and a
/// Content-Security-Policy says so to the browser (nothing is fetched from anywhere). Every
/// name and text from the recording is escaped (``HTMLText``).
struct ReportPage {
    let document: ReportDocument

    var html: String {
        let report = document.report
        let room = HTMLText.escape(report.room)
        var lines = [
            "<!DOCTYPE html>",
            #"<html lang="en"><head><meta charset="utf-8">"#,
            #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">"#,
            #"<meta name="viewport" content="width=device-width, initial-scale=1">"#,
            "<title>Recording report: \(room)</title>",
            "<style>\(Self.style)</style>",
            "</head><body>",
            "<h1>Room \(room)</h1>",
            #"<p class="meta">"# + HTMLText.escape(Self.summaryLine(report)) + "</p>",
            ReportTimeline(report: report).svg,
            Self.legend,
            "<table><thead><tr><th></th><th>Participant</th><th>Present</th><th>Spoke</th><th>Audio loss</th><th>Video loss</th>"
                + "<th>NACK</th><th>PLI</th><th>Keyframes</th><th>Freezes</th><th>A/V offset</th></tr></thead><tbody>",
        ]
        lines += report.participants.map(row)
        lines.append("</tbody></table>")
        lines += notes(report)
        lines.append("</body></html>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func summaryLine(_ report: RecordingReport) -> String {
        var parts = ["started \(report.startedAt)", "length \(HTMLText.seconds(report.durationMs))", report.state,
                     "\(report.participants.count) participant\(report.participants.count == 1 ? "" : "s")"]
        if !report.connectionGaps.isEmpty {
            parts.append("recorder disconnected \(report.connectionGaps.count)×, reconnected \(report.reconnects)×")
        }
        return parts.joined(separator: " · ")
    }

    private func row(_ participant: ParticipantReport) -> String {
        let thumbnail = document.thumbnails[participant.name].map {
            #"<img class="thumb" alt="\#(HTMLText.escape(participant.display))" src="data:image/png;base64,\#(Data($0).base64EncodedString())">"#
        } ?? #"<span class="nothumb">no video</span>"#
        let freezes = participant.freezes.isEmpty ? "0" : "\(participant.freezes.count) (\(HTMLText.seconds(participant.freezeMs)))"
        let offset = participant.avOffsetMs.map { "\($0) ms" } ?? participant.avSync.replacingOccurrences(of: "_", with: " ")
        let cells = [
            thumbnail,
            #"<span class="display">\#(HTMLText.escape(participant.display))</span><br><span class="file">\#(HTMLText.escape(participant.name))</span>"#,
            HTMLText.seconds(participant.presentMs),
            HTMLText.seconds(participant.speakingMs),
            Self.loss(participant.audio, participant.audioLossPercent), Self.loss(participant.video, participant.videoLossPercent),
            "\(participant.nacks)",
            "\(participant.video.plis)", "\(participant.video.keyframes)",
            freezes, HTMLText.escape(offset),
        ]
        return "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
    }

    private static func loss(_ stats: RecordingManifest.KindStats, _ percent: Double) -> String {
        guard stats.packets > 0 || stats.lost > 0 else { return "–" }
        return "\(String(format: "%.2f", percent))% (\(stats.lost))"
    }

    private func notes(_ report: RecordingReport) -> [String] {
        let all = report.notes + report.participants.flatMap { participant in participant.notes.map { "\(participant.name): \($0)" } }
        guard !all.isEmpty else { return [] }
        return [#"<h2>Notes</h2><ul class="notes">"#] + all.map { "<li>\(HTMLText.escape($0))</li>" } + ["</ul>"]
    }

    static let legend = #"""
        <p class="legend"><span class="key present"></span>present <span class="key speaking"></span>speaking \#
        <span class="key freeze"></span>video frozen <span class="key audio-gap"></span>no audio \#
        <span class="key gap"></span>recorder disconnected <span class="key reconnect"></span>reconnected</p>
        """#

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}\
        h1{font-size:20px;margin:0 0 4px}.meta{color:#555;margin:0 0 16px}\
        svg.timeline{display:block;max-width:100%;height:auto;border:1px solid #dde;background:#fafbfd}\
        .axis{font-size:11px;fill:#667}.tick{stroke:#e3e6ee}.name{font-size:13px;fill:#1d2330}\
        .figures{font-size:10px;fill:#667}.present{fill:#d5dae6}.speaking{fill:#2e9e5b}.freeze{fill:#f08a24}\
        .audio-gap{fill:#d63b3b}.gap{fill:#d63b3b;fill-opacity:.18}.reconnect{stroke:#d63b3b;stroke-width:2}\
        .legend{font-size:12px;color:#555}.key{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px;vertical-align:-2px}\
        .key.present{background:#d5dae6}.key.speaking{background:#2e9e5b}.key.freeze{background:#f08a24}\
        .key.audio-gap{background:#d63b3b}.key.gap{background:rgba(214,59,59,.18)}.key.reconnect{background:#d63b3b;width:3px}\
        table{border-collapse:collapse;margin-top:16px}th,td{padding:6px 10px;border-bottom:1px solid #e3e6ee;text-align:left}\
        th{font-size:12px;color:#555}.thumb{display:block;width:120px;height:auto;border-radius:3px}\
        .nothumb{color:#999;font-size:12px}.file{color:#777;font-size:11px}.notes{color:#8a4b00}
        """
}
