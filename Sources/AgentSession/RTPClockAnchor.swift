import AgentCore

/// Ties a sender's RTP timeline to the media clock its track is captured on: RTP time `rtp` was
/// captured at `instant`, and RTP time runs at `clockRate` ticks per second from there.
///
/// An SR (RFC 3550 §6.4.1) must give the RTP time of the same instant as its NTP time, which in
/// general falls between frames. Extrapolating from the anchor on the monotonic clock gives it
/// exactly: rtp(now) = rtp + (now − instant) × clockRate, rounded to the nearest tick.
public struct RTPClockAnchor: Equatable, Sendable {
    public var rtpTimestamp: Int64
    public var instant: MediaInstant
    public let clockRate: Int

    public init(rtpTimestamp: Int64, instant: MediaInstant, clockRate: Int) {
        self.rtpTimestamp = rtpTimestamp
        self.instant = instant
        self.clockRate = clockRate
    }

    /// The unwrapped RTP time at `now` (earlier instants give earlier times).
    public func rtpTimestamp(at now: MediaInstant) -> Int64 {
        rtpTimestamp + Self.ticks(nanoseconds: now.monotonicNanoseconds &- instant.monotonicNanoseconds, clockRate: clockRate)
    }

    /// Nanoseconds to clock ticks, rounded half away from zero. Split into whole seconds and the
    /// rest so that days of media at 90 kHz cannot overflow Int64.
    static func ticks(nanoseconds: Int64, clockRate: Int) -> Int64 {
        let rate = Int64(clockRate)
        let seconds = nanoseconds / 1_000_000_000
        let rest = nanoseconds % 1_000_000_000
        let half: Int64 = rest < 0 ? -500_000_000 : 500_000_000
        return seconds &* rate &+ (rest * rate + half) / 1_000_000_000
    }
}
