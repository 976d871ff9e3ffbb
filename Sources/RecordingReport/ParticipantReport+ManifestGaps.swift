import Agent
import Recorder

extension ParticipantReport {
    /// For a participant whose video files gave no frame: the manifest's own video gaps
    /// longer than ``VideoScan/freezeThresholdMs`` as freezes, so the report still shows them.
    mutating func useManifestVideoGaps(_ gaps: [RecordingManifest.Gap]) {
        let spans = gaps.filter { $0.kind == .video }.map { TimelineSpan(startMs: $0.startMs, endMs: $0.endMs) }
            .filter { $0.durationMs > VideoScan.freezeThresholdMs }
        guard !spans.isEmpty else { return }
        freezes = Array(spans.prefix(VideoScan.maxFreezes))
        freezeMs = spans.reduce(Int64(0)) { total, span in
            let (sum, overflow) = total.addingReportingOverflow(span.durationMs)
            return overflow ? .max : sum
        }
    }

    /// The manifest's audio gaps while present, cut at the leave (a gap that began before it runs
    /// on to the recording's end in the manifest): what ``audioGaps`` holds.
    mutating func takeAudioGaps(_ gaps: [RecordingManifest.Gap]) {
        let quiet = gaps.filter { $0.kind == .audio && !Self.notWhilePresent.contains($0.reason) }
        let end = leftMs ?? .max
        audioGaps = quiet.lazy.map { TimelineSpan(startMs: $0.startMs, endMs: min($0.endMs, end)) }
            .filter { $0.durationMs > 0 }.prefix(Self.maxAudioGaps).map { $0 }
    }

    /// Audio gaps listed: a sender with DTX leaves one per pause, and the list must stay bounded.
    static let maxAudioGaps = 10_000

    /// Gap reasons that are not a stream's fault: before the join, after the leave, the
    /// recorder's own reconnect (shown for the whole room).
    static let notWhilePresent: Set<String> = ["not_joined", "left", "reconnect"]
}
