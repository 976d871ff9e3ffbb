import Foundation

/// The report as a few lines of text for a terminal (`agentd report DIR`): the recording, one
/// line per participant, the recorder's disconnections, and how many notes there are. Names are
/// the room's: control characters are shown as `?`, so a name cannot drive the terminal.
public enum ReportSummary {
    /// Participants listed; the rest are counted (the page and the JSON have everyone).
    static let maxParticipants = 20

    public static func lines(_ report: RecordingReport) -> [String] {
        var lines = ["room \(printable(report.room)): " + ReportPage.summaryLine(report)]
        let shown = report.participants.prefix(maxParticipants)
        let width = min(24, shown.map { printable($0.display).count }.max() ?? 0)
        for participant in shown {
            lines.append("  " + printable(participant.display).padding(toLength: width, withPad: " ", startingAt: 0) + "  " + figures(participant))
        }
        if report.participants.count > shown.count {
            lines.append("  … and \(report.participants.count - shown.count) more (see report.html)")
        }
        for gap in report.connectionGaps.prefix(5) {
            let end = gap.endMs.map(HTMLText.seconds) ?? "never back"
            lines.append("  recorder disconnected \(HTMLText.seconds(gap.startMs)) – \(end) (\(gap.attempts) attempt\(gap.attempts == 1 ? "" : "s"))")
        }
        let notes = report.notes.count + report.participants.reduce(0) { $0 + $1.notes.count }
        if notes > 0 { lines.append("  \(notes) note\(notes == 1 ? "" : "s"): files that could not be read (see report.json)") }
        return lines
    }

    static func figures(_ participant: ParticipantReport) -> String {
        var parts = [
            "present \(HTMLText.seconds(participant.presentMs))",
            "spoke \(HTMLText.seconds(participant.speakingMs)) (\(participant.speaking.count)×)",
            "loss a \(String(format: "%.1f", participant.audioLossPercent))% v \(String(format: "%.1f", participant.videoLossPercent))%",
            "nack \(participant.nacks)", "pli \(participant.video.plis)",
            "freezes \(participant.freezes.count)",
        ]
        parts.append("a/v " + (participant.avOffsetMs.map { "\($0) ms" } ?? participant.avSync))
        return parts.joined(separator: "  ")
    }

    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : scalar
        }))
    }
}
