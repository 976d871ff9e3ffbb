/// Turns capture times into RTP times at `clockRate` (90 kHz for video), counted from the first
/// frame's capture time, strictly increasing.
///
/// Each RTP time is computed from the capture time, never by adding up frame durations, so a
/// source that drops or delays frames still produces times that match when the pictures were
/// taken (receivers and recorders place frames by them).
struct VideoCaptureTimeline: Sendable {
    let clockRate: Int64
    private var origin: ContinuousClock.Instant?
    private var lastTimestamp: Int64?

    init(clockRate: Int) {
        self.clockRate = Int64(clockRate)
    }

    /// The RTP time of a frame captured at `instant`. The first call sets time 0. A time that
    /// would not be after the previous one (a capture time that did not advance by a whole tick)
    /// becomes the previous time plus one tick.
    mutating func rtpTimestamp(at instant: ContinuousClock.Instant) throws(VideoTrackError) -> Int64 {
        let origin = self.origin ?? instant
        let elapsed = instant - origin
        let (seconds, attoseconds) = elapsed.components
        // Days of media fit easily; this bound only refuses capture times that are nonsense.
        let secondsLimit = Int64.max / clockRate - 1
        guard seconds > -secondsLimit, seconds < secondsLimit else { throw .captureTimeOutOfRange(elapsed) }
        let nanoseconds = attoseconds / 1_000_000_000
        let half: Int64 = nanoseconds < 0 ? -500_000_000 : 500_000_000
        var timestamp = seconds * clockRate + (nanoseconds * clockRate + half) / 1_000_000_000
        if let lastTimestamp, timestamp <= lastTimestamp { timestamp = lastTimestamp + 1 }
        self.origin = origin
        lastTimestamp = timestamp
        return timestamp
    }
}
