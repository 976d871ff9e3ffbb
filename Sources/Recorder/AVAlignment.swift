import Agent

/// Lines a participant's video up with their audio by the two streams' RTCP sender reports.
///
/// Each track is placed by RTP from its first frame's mapped wall time (``RTPTimelineAnchor``),
/// and that first mapping is nearly always arrival-based: the first SR comes a second or so after
/// the media. Arrival carries each stream's own delay, and the first video frame has the largest
/// (a keyframe is the slowest to encode and the longest to send), so arrival-placed audio and
/// video are tens of milliseconds apart. Once a frame of each track has come mapped by an SR,
/// `placed - SR time` is each track's placement error; video moves by the difference and audio,
/// which the WAVs and the room mix share, never moves.
///
/// The correction is made once per pair of streams: again only after ``reset()`` (a reconnect,
/// or a track re-anchored after a sender restart). Later SRs refine the wall-clock mapping of
/// each stream by a few ms of jitter, and following them would move video back and forth.
struct AVAlignment {
    /// `placed - SR time` (ms) of the latest SR-mapped frame of each track, until aligned.
    private var errorMs: [MediaKind: Int64] = [:]
    /// The shift given to video, once aligned (0 when the tracks already agreed).
    private(set) var videoShiftMs: Int64?

    var isAligned: Bool { videoShiftMs != nil }

    /// Takes a placed frame; returns the shift to give video (its anchor and the frames still
    /// held) when this frame completes the pair, nil otherwise.
    mutating func placed(kind: MediaKind, atMs placedMs: Int64, senderReportMs: Int64?) -> Int64? {
        guard videoShiftMs == nil, let senderReportMs else { return nil }
        let (error, overflow) = placedMs.subtractingReportingOverflow(senderReportMs)
        guard !overflow else { return nil }
        errorMs[kind] = error
        guard let audio = errorMs[.audio], let video = errorMs[.video] else { return nil }
        let (shift, overflowShift) = audio.subtractingReportingOverflow(video)
        guard !overflowShift else { return nil }
        videoShiftMs = shift
        return shift
    }

    /// Forgets the streams: the next pair of SR-mapped frames aligns again.
    mutating func reset() {
        errorMs.removeAll()
        videoShiftMs = nil
    }
}
