/// The recorder's own connection on the recording's timeline: the gaps while it was out of the
/// room, and the participants a drop took away, who may come back.
///
///     ──── connected ────|== gap: reconnecting ==|──── connected ─────────────────────
///                        ^ start_ms              ^ end_ms
///     alice (id 1) ──────|  lost at start_ms ........ alice (id 7) joins ─▶ same files
///                                                 |<─── rejoinWindowMs ───>|  later: a new name
///
/// A Janus restart gives everyone new ids, so "the same person" can only be told by display
/// name: someone lost to the drop who joins with the same display while the gap is open or
/// within ``rejoinWindowMs`` after it closed continues their recording (same name, same WAV on
/// one timeline). Namesakes are matched oldest loss first. Past the window a join is a new
/// participant with a rejoin name (`-2`), as the naming contract has it.
struct ReconnectTimeline {
    let rejoinWindowMs: Int64
    private(set) var gaps: [RecordingManifest.ConnectionGap] = []
    private var lost: [(recording: ParticipantRecording, display: String)] = []

    init(rejoinWindowMs: Int64 = 60_000) {
        self.rejoinWindowMs = rejoinWindowMs
    }

    /// True between a drop and the recovery.
    var isOpen: Bool { gaps.last.map { $0.endMs == nil } ?? false }

    /// The connection dropped or is still retrying. Returns true when this opens a gap.
    mutating func reconnecting(attempt: Int, atMs ms: Int64) -> Bool {
        if isOpen {
            gaps[gaps.count - 1].attempts = max(gaps[gaps.count - 1].attempts, attempt)
            return false
        }
        gaps.append(.init(startMs: ms, attempts: max(1, attempt)))
        return true
    }

    /// Back in the room (or out for good, or the recording ends): closes the open gap.
    mutating func close(atMs ms: Int64) {
        guard isOpen else { return }
        gaps[gaps.count - 1].endMs = max(gaps[gaps.count - 1].startMs, ms)
    }

    /// The gaps as ranges, an open one running to `openEndMs`.
    func ranges(openEndMs: Int64) -> [Range<Int64>] {
        gaps.map { gap in gap.startMs..<max(gap.startMs, gap.endMs ?? openEndMs) }
    }

    /// Someone left while the gap was open: they may come back.
    mutating func lose(_ recording: ParticipantRecording, display: String) {
        lost.append((recording, display))
    }

    /// The lost recording a join of `display` at `ms` continues, if any, and the lost ones whose
    /// window has passed (to be closed).
    mutating func reclaim(display: String, atMs ms: Int64) -> (match: ParticipantRecording?, expired: [ParticipantRecording]) {
        var expired: [ParticipantRecording] = []
        if !isOpen, let end = gaps.last?.endMs, ms > end + rejoinWindowMs {
            expired = lost.map(\.recording)
            lost.removeAll()
        }
        guard let index = lost.firstIndex(where: { $0.display == display }) else { return (nil, expired) }
        return (lost.remove(at: index).recording, expired)
    }
}
