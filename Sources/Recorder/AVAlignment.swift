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
/// A sender report can itself be late: a sender that stamps it with the RTP time of the last
/// packet it sent and the wall time of sending the report (aiortc does) puts that packet's
/// capture up to a frame interval, plus any encoder stall, too late. Such a delay only ever makes
/// the SR time later, so the error of each track is the largest seen (the least-delayed report)
/// over the first ``settleMs`` of the participant's media, which stays inside the WebM's 2 s hold.
/// One CI run had a first video report 108 ms late, and video landed 66 ms after its audio.
///
/// Under load a sender can delay every report of one track in the window (a CI run saw audio's
/// reports all about 115 ms late, and video moved 128 ms the wrong way). Arrival placement is off
/// by network and encoder delay, tens of milliseconds (66 ms is the most seen), so a shift beyond
/// ``plausibleShiftMs`` says the reports, not the placement, are wrong: the estimate goes on
/// gathering (a prompt report of the delayed track brings it in), and after ``giveUpMs`` without a
/// plausible one video keeps its arrival placement (shift 0).
///
/// The correction is made once per pair of streams: again only after ``reset()`` (a reconnect,
/// or a track re-anchored after a sender restart). Later SRs refine the wall-clock mapping of
/// each stream by a few ms of jitter, and following them would move video back and forth.
struct AVAlignment {
    /// How long after the first placed frame the estimate gathers reports before it commits.
    static let settleMs: Int64 = 1800
    /// The largest shift believed: more is a delayed report, not a placement error.
    static let plausibleShiftMs: Int64 = 100
    /// How long after the first placed frame an implausible estimate is given up for no shift.
    static let giveUpMs: Int64 = 8000

    /// `placed - SR time` (ms), the largest of each track's SR-mapped frames, until aligned.
    private var errorMs: [MediaKind: Int64] = [:]
    /// The first frame placed since the start or ``reset()``, where the settle time counts from.
    private var firstPlacedMs: Int64?
    /// The shift given to video, once aligned (0 when the tracks already agreed).
    private(set) var videoShiftMs: Int64?

    var isAligned: Bool { videoShiftMs != nil }

    /// Takes a placed frame; returns the shift to give video (its anchor and the frames still
    /// held) when the estimate commits on this frame, nil otherwise. It commits on the first
    /// frame at least ``settleMs`` after the first placed one once both tracks have a report and
    /// the shift is within ``plausibleShiftMs``, or with no shift at ``giveUpMs``.
    mutating func placed(kind: MediaKind, atMs placedMs: Int64, senderReportMs: Int64?) -> Int64? {
        guard videoShiftMs == nil else { return nil }
        let first = firstPlacedMs.map { min($0, placedMs) } ?? placedMs
        firstPlacedMs = first
        if let senderReportMs {
            let (error, overflow) = placedMs.subtractingReportingOverflow(senderReportMs)
            if !overflow { errorMs[kind] = max(errorMs[kind] ?? .min, error) }
        }
        let (settled, overflow) = placedMs.subtractingReportingOverflow(first)
        guard !overflow, settled >= Self.settleMs,
              let audio = errorMs[.audio], let video = errorMs[.video] else { return nil }
        let (shift, overflowShift) = audio.subtractingReportingOverflow(video)
        guard !overflowShift else { return nil }
        if shift.magnitude > Self.plausibleShiftMs.magnitude {
            guard settled >= Self.giveUpMs else { return nil }
            videoShiftMs = 0
            return 0
        }
        videoShiftMs = shift
        return shift
    }

    /// Forgets the streams: the next pair of SR-mapped frames aligns again.
    mutating func reset() {
        errorMs.removeAll()
        firstPlacedMs = nil
        videoShiftMs = nil
    }
}
