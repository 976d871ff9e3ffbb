/// Places one stream's frames on the recording's timeline: the first by its mapped wall time,
/// every later one by its RTP distance from that first one, so arrival jitter and a mapping that
/// moves (arrival time giving way to the first sender report) never shift frames. Only a jump
/// beyond `threshold` (a sender restart) re-anchors on the wall time.
struct RTPTimelineAnchor {
    /// Timeline units per second: 48 000 for WAV samples, 1 000 for WebM milliseconds.
    let unitsPerSecond: Int64
    let threshold: Int64
    private var anchor: (rtp: Int64, position: Int64)?
    private(set) var reanchors = 0

    init(unitsPerSecond: Int64, thresholdSeconds: Int64 = 5) {
        self.unitsPerSecond = unitsPerSecond
        threshold = thresholdSeconds * unitsPerSecond
    }

    /// The position of a frame with `rtp` (in a `clockRate` clock) whose wall time maps to
    /// `wallPosition`.
    mutating func place(rtp: Int64, clockRate: Int, wallPosition: Int64) -> Int64 {
        if let anchor {
            let placed = anchor.position + (rtp - anchor.rtp) * unitsPerSecond / Int64(max(1, clockRate))
            if abs(placed - wallPosition) <= threshold { return placed }
            reanchors += 1
        }
        anchor = (rtp, wallPosition)
        return wallPosition
    }

    /// Moves every later placement by `units` (``AVAlignment`` lining video up with audio).
    mutating func shift(by units: Int64) {
        guard let current = anchor else { return }
        let (position, overflow) = current.position.addingReportingOverflow(units)
        if !overflow { anchor = (current.rtp, position) }
    }
}
