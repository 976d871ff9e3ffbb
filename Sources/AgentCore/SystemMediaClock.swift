#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real clocks: `CLOCK_MONOTONIC` for intervals (never steps) and `CLOCK_REALTIME` for
/// wall time (can step when NTP corrects it, which is why intervals never use it).
public struct SystemMediaClock: MediaClock {
    public init() {}

    public func now() -> MediaInstant {
        MediaInstant(monotonicNanoseconds: Self.read(CLOCK_MONOTONIC), wallNanoseconds: Self.read(CLOCK_REALTIME))
    }

    private static func read(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        // clock_gettime only fails for an invalid clock id or pointer, neither possible here.
        _ = clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
