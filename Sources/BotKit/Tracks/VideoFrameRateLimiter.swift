/// Holds a stream of capture times to at most `framesPerSecond`, the way a camera pipeline drops
/// frames for an encoder that wants fewer.
///
/// Admitted frames claim slots one interval apart. A frame is admitted when it arrives no earlier
/// than its slot minus a tolerance (a quarter interval, for capture jitter), so over any stretch
/// at most one frame per interval gets through, while a source at exactly the limit loses none:
///
/// ```
///   limit 30 fps, source 60 fps:  |x . x . x . x |   x admitted, . dropped (too early)
///   slots:                        |^   ^   ^   ^ |   one per 33.3 ms
/// ```
///
/// A source slower than the limit, or one that paused, starts the slots over from its latest
/// frame, so the idle time cannot be spent later on a burst. Capture times that go backwards are
/// simply early, and dropped.
struct VideoFrameRateLimiter: Sendable {
    let interval: Duration
    let tolerance: Duration
    private var nextSlot: ContinuousClock.Instant?

    init(framesPerSecond: Int) {
        interval = .seconds(1) / max(1, framesPerSecond)
        tolerance = interval / 4
    }

    /// Whether a frame captured at `instant` should be encoded; if so, it takes the next slot.
    mutating func admit(_ instant: ContinuousClock.Instant) -> Bool {
        guard let slot = nextSlot else {
            nextSlot = instant + interval
            return true
        }
        guard instant >= slot - tolerance else { return false }
        nextSlot = instant - slot >= interval ? instant + interval : slot + interval
        return true
    }
}
