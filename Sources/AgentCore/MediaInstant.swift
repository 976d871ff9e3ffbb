/// One reading of a ``MediaClock``: a monotonic time for intervals (timeouts, retries, jitter)
/// and the wall-clock time read at the same moment (for mapping media to real time).
///
/// Ordering and equality use the monotonic part only: two readings are "the same instant" when
/// their monotonic times agree, whatever the wall clock did (NTP steps, leap smearing).
public struct MediaInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds on a monotonic clock with an arbitrary origin.
    public var monotonicNanoseconds: Int64
    /// Nanoseconds since 1970-01-01 00:00:00 UTC, read together with `monotonicNanoseconds`.
    public var wallNanoseconds: Int64

    public init(monotonicNanoseconds: Int64, wallNanoseconds: Int64) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.wallNanoseconds = wallNanoseconds
    }

    public static func == (lhs: MediaInstant, rhs: MediaInstant) -> Bool {
        lhs.monotonicNanoseconds == rhs.monotonicNanoseconds
    }

    public static func < (lhs: MediaInstant, rhs: MediaInstant) -> Bool {
        lhs.monotonicNanoseconds < rhs.monotonicNanoseconds
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(monotonicNanoseconds) }

    /// The instant `duration` later (earlier if negative); both clocks move together.
    public static func + (lhs: MediaInstant, rhs: Duration) -> MediaInstant {
        let delta = rhs.totalNanoseconds
        return MediaInstant(
            monotonicNanoseconds: lhs.monotonicNanoseconds &+ delta, wallNanoseconds: lhs.wallNanoseconds &+ delta)
    }

    /// The monotonic time from `rhs` to `lhs`.
    public static func - (lhs: MediaInstant, rhs: MediaInstant) -> Duration {
        .nanoseconds(lhs.monotonicNanoseconds &- rhs.monotonicNanoseconds)
    }

    public var description: String { "MediaInstant(\(monotonicNanoseconds) ns)" }
}
