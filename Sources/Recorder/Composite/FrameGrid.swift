/// The composite's output frame times: frame k is at round(k · 1000 / fps) ms on the recording's
/// timeline (t=0 is frame 0). Integer milliseconds, as WebM block times are.
struct FrameGrid: Sendable, Equatable {
    let framesPerSecond: Int

    init(framesPerSecond: Int) {
        self.framesPerSecond = max(1, framesPerSecond)
    }

    func time(ofFrame index: Int64) -> Int64 {
        let rate = Int64(framesPerSecond)
        return (index * 1000 + rate / 2) / rate
    }

    /// The first frame whose time is at or after `ms` (frame 0 for any time up to 0).
    func firstFrame(atOrAfter ms: Int64) -> Int64 {
        guard ms > 0 else { return 0 }
        var index = max(0, ms * Int64(framesPerSecond) / 1000 - 1)
        while time(ofFrame: index) < ms { index += 1 }
        return index
    }
}
