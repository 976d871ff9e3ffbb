import Agent
import Foundation

/// The report's timeline picture, as SVG: one row (`<g class="participant-row">`) per
/// participant, left to right over the recording. In a row: a grey band while they were
/// present, green blocks while they spoke, orange marks where their video froze, red marks where
/// no audio came while they were there (loss or DTX: the manifest's WAV gaps); across every row,
/// red bands where the recorder's own connection was down, and a mark where it reconnected.
struct ReportTimeline {
    static let width = 1000.0
    static let labelWidth = 170.0
    static let rowHeight = 34.0
    static let axisHeight = 26.0
    /// Marks of one kind drawn in a row: more are in report.json but would only bloat the page
    /// (an hour of lively talk is under 2000 turns).
    static let maxMarks = 5000

    let report: RecordingReport

    var svg: String {
        let rows = Double(report.participants.count)
        let height = Self.axisHeight + rows * Self.rowHeight + 8
        var parts: [String] = [
            #"<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" viewBox="0 0 \#(Self.width) \#(format(height))" width="\#(Self.width)" height="\#(format(height))">"#,
            "<title>Timeline of room \(HTMLText.escape(report.room))</title>",
        ]
        parts += axis(height: height)
        for (index, participant) in report.participants.enumerated() {
            parts += row(participant, top: Self.axisHeight + Double(index) * Self.rowHeight)
        }
        parts += connectionMarks(height: height)
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    private var plotWidth: Double { Self.width - Self.labelWidth - 10 }

    /// The x of a timeline time, clamped to the plot (a hostile manifest's times stay on it).
    private func x(_ ms: Int64) -> Double {
        let duration = Double(max(1, report.durationMs))
        return Self.labelWidth + min(1, max(0, Double(ms) / duration)) * plotWidth
    }

    private func block(_ span: TimelineSpan, y: Double, height: Double, kind: String, label: String) -> String {
        let left = x(span.startMs)
        let width = max(1, x(span.endMs) - left)
        return #"<rect class="\#(kind)" x="\#(format(left))" y="\#(format(y))" width="\#(format(width))" height="\#(format(height))"><title>\#(HTMLText.escape(label))</title></rect>"#
    }

    private func axis(height: Double) -> [String] {
        let step = Self.tickStep(durationMs: report.durationMs)
        var lines: [String] = []
        var tick: Int64 = 0
        while tick <= report.durationMs, lines.count < 40 {
            let position = format(x(tick))
            lines.append(#"<line class="tick" x1="\#(position)" y1="\#(format(Self.axisHeight - 6))" x2="\#(position)" y2="\#(format(height))"/>"#)
            // The last label would be cut at the picture's right edge: it ends there instead.
            let anchor = x(tick) > Self.width - 30 ? "end" : "middle"
            lines.append(#"<text class="axis" x="\#(position)" y="14" text-anchor="\#(anchor)">\#(HTMLText.clock(tick))</text>"#)
            let (next, overflow) = tick.addingReportingOverflow(step)
            if overflow { break }
            tick = next
        }
        return lines
    }

    private func row(_ participant: ParticipantReport, top: Double) -> [String] {
        let name = HTMLText.escape(participant.name)
        var lines = [#"<g class="participant-row" data-name="\#(name)">"#]
        lines.append(#"<text class="name" x="6" y="\#(format(top + 15))">\#(HTMLText.escape(participant.display))</text>"#)
        lines.append(#"<text class="figures" x="6" y="\#(format(top + 29))">\#(HTMLText.escape(Self.figures(participant)))</text>"#)
        let presence = TimelineSpan(startMs: participant.joinedMs, endMs: participant.leftMs ?? report.durationMs)
        lines.append(block(presence, y: top + 4, height: Self.rowHeight - 8, kind: "present",
                           label: "\(participant.display): present \(HTMLText.seconds(presence.startMs))–\(HTMLText.seconds(presence.endMs))"))
        for span in participant.speaking.prefix(Self.maxMarks) {
            lines.append(block(span, y: top + 9, height: Self.rowHeight - 18, kind: "speaking",
                               label: "spoke \(HTMLText.seconds(span.startMs))–\(HTMLText.seconds(span.endMs))"))
        }
        for span in participant.freezes.prefix(Self.maxMarks) {
            lines.append(block(span, y: top + Self.rowHeight - 10, height: 5, kind: "freeze",
                               label: "video froze \(HTMLText.seconds(span.durationMs)) at \(HTMLText.seconds(span.startMs))"))
        }
        for span in participant.audioGaps.prefix(Self.maxMarks) {
            lines.append(block(span, y: top + 4, height: 5, kind: "audio-gap",
                               label: "no audio \(HTMLText.seconds(span.startMs))–\(HTMLText.seconds(span.endMs))"))
        }
        lines.append("</g>")
        return lines
    }

    private func connectionMarks(height: Double) -> [String] {
        var lines: [String] = []
        for gap in report.connectionGaps {
            let span = TimelineSpan(startMs: gap.startMs, endMs: gap.endMs ?? report.durationMs)
            lines.append(block(span, y: Self.axisHeight, height: height - Self.axisHeight, kind: "gap",
                               label: "recorder disconnected \(HTMLText.seconds(span.startMs))–\(HTMLText.seconds(span.endMs))"))
            if let end = gap.endMs {
                let position = format(x(end))
                lines.append(#"<line class="reconnect" x1="\#(position)" y1="\#(format(Self.axisHeight))" x2="\#(position)" y2="\#(format(height))"><title>reconnected at \#(HTMLText.seconds(end)) after \#(gap.attempts) attempt(s)</title></line>"#)
            }
        }
        return lines
    }

    /// The row's second label line: what went wrong, briefly.
    static func figures(_ participant: ParticipantReport) -> String {
        var parts = ["spoke \(HTMLText.seconds(participant.speakingMs))"]
        let loss = max(participant.audioLossPercent, participant.videoLossPercent)
        if loss > 0 { parts.append("loss \(String(format: "%.1f", loss))%") }
        if !participant.freezes.isEmpty { parts.append("\(participant.freezes.count) freeze\(participant.freezes.count == 1 ? "" : "s")") }
        return parts.joined(separator: " · ")
    }

    /// A round tick spacing giving at most about ten ticks.
    static func tickStep(durationMs: Int64) -> Int64 {
        let steps: [Int64] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400].map { $0 * 1000 }
        return steps.first { durationMs / $0 <= 10 } ?? 86_400_000 * max(1, durationMs / 864_000_000)
    }

    private func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
