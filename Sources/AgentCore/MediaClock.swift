/// Where the receive path gets time from. The state machines in this folder never read a clock
/// themselves: their callers read one ``MediaClock`` and pass the ``MediaInstant`` in, so tests
/// drive them with ``ManualMediaClock`` and production with ``SystemMediaClock``.
public protocol MediaClock: Sendable {
    /// The current monotonic and wall-clock time, read together.
    func now() -> MediaInstant
}
