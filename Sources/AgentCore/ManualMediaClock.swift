import Synchronization

/// A clock that moves only when told to, so tests of timeouts, retries and jitter are exact and
/// never sleep. Wall time advances with monotonic time unless set apart with ``setWall(_:)``.
public final class ManualMediaClock: MediaClock {
    private let current: Mutex<MediaInstant>

    /// Starts at monotonic `monotonicNanoseconds` and wall time `wallNanoseconds` (ns since 1970;
    /// the default is 2026-01-01T00:00:00Z).
    public init(monotonicNanoseconds: Int64 = 1_000_000_000, wallNanoseconds: Int64 = 1_767_225_600_000_000_000) {
        current = Mutex(MediaInstant(monotonicNanoseconds: monotonicNanoseconds, wallNanoseconds: wallNanoseconds))
    }

    public func now() -> MediaInstant { current.withLock { $0 } }

    /// Moves both clocks forward by `duration` and returns the new time.
    @discardableResult
    public func advance(by duration: Duration) -> MediaInstant {
        current.withLock { instant in
            instant = instant + duration
            return instant
        }
    }

    /// Steps the wall clock alone, as an NTP correction would.
    public func setWall(_ wallNanoseconds: Int64) {
        current.withLock { $0.wallNanoseconds = wallNanoseconds }
    }
}
