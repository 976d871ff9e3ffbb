import CNice
import Synchronization

/// A timer on an ``EventLoop`` (repeating or one-shot): a GLib timeout source on the loop's context, so the
/// work runs on the loop thread with no task or queue hop per tick.
public final class LoopTimer: @unchecked Sendable {
    // @unchecked Sendable: `source` is set once in init and we hold a reference to it until
    // deinit; g_source_destroy is thread-safe, and the atomic makes it happen once.
    private let source: UnsafeMutablePointer<GSource>
    private let cancelled = Atomic<Bool>(false)

    fileprivate init(source: UnsafeMutablePointer<GSource>) {
        self.source = source
    }

    deinit {
        cancel()
        g_source_unref(source)
    }

    /// Stops the timer. Idempotent; safe from any thread.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        g_source_destroy(source)
    }
}

extension EventLoop {
    /// Runs `work` on the loop every `interval` until the returned timer is cancelled (or
    /// released). GLib keeps the interval from the previous run, not a fixed grid.
    public func scheduleRepeating(every interval: Duration, _ work: @escaping @Sendable () -> Void) -> LoopTimer {
        makeTimer(interval, repeats: true, work)
    }

    /// Runs `work` on the loop once, after `delay`, unless the returned timer is cancelled first.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> LoopTimer {
        makeTimer(delay, repeats: false, work)
    }

    private func makeTimer(_ interval: Duration, repeats: Bool, _ work: @escaping @Sendable () -> Void) -> LoopTimer {
        // GLib takes a guint of milliseconds: longer intervals are clamped (about 49.7 days),
        // and the conversion saturates, so an interval from outside cannot trap.
        let milliseconds = max(1, min(Int64(UInt32.max), interval.totalMilliseconds))
        let source = g_timeout_source_new(guint(milliseconds))!
        let box = Unmanaged.passRetained(TimerWork(work, repeats: repeats)).toOpaque()
        g_source_set_callback(
            source,
            { data in
                let work = Unmanaged<TimerWork>.fromOpaque(data!).takeUnretainedValue()
                work.run()
                return work.repeats ? 1 : 0  // G_SOURCE_CONTINUE / G_SOURCE_REMOVE
            },
            box,
            { data in Unmanaged<TimerWork>.fromOpaque(data!).release() })
        g_source_attach(source, context)
        return LoopTimer(source: source)  // keeps the creation reference until it goes away
    }
}

private final class TimerWork {
    let run: @Sendable () -> Void
    let repeats: Bool
    init(_ run: @escaping @Sendable () -> Void, repeats: Bool) {
        self.run = run
        self.repeats = repeats
    }
}
