import Foundation
import Glibc
import Synchronization

/// One serial lane of ``WorkerLanes``: a thread of its own that runs the work handed to it one
/// item at a time, in the order it was handed over, behind a bounded queue.
///
/// ``tryEnqueue(_:)`` never blocks: when ``capacity`` items already wait it refuses the item and
/// counts it in ``dropped``. ``enqueue(_:)`` is for the few items that must not be lost (a
/// stream's end) and ignores the bound. After ``shutdown()`` both refuse (and count), while what
/// was queued before still runs.
public final class WorkerLane: Sendable {
    /// Work waiting to run, boxed in a struct: a function value kept directly in a `Mutex`'d
    /// container is reabstracted on every read (see ``LockedCallback``).
    private struct Job {
        let run: @Sendable () -> Void
    }

    private struct State {
        /// `jobs[head...]` wait; the consumed prefix is cut off now and then.
        var jobs: [Job] = []
        var head = 0
        var accepting = true
        var stopRequested = false

        var waiting: Int { jobs.count - head }

        mutating func push(_ job: Job) {
            jobs.append(job)
        }

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// The lane's thread name (Linux keeps 15 bytes of it).
    public let name: String
    /// Items that may wait (not counting the one running) before ``tryEnqueue(_:)`` refuses.
    public let capacity: Int
    private let state = Mutex(State())
    private let droppedCount = Atomic<Int>(0)
    /// One signal per item queued, and one for the stop.
    private let wakeup = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    /// The lane thread's identity while it runs (0 before and after), for ``isCurrent``.
    private let owner = Atomic<pthread_t>(0)

    init(name: String, capacity: Int) {
        self.name = name
        self.capacity = max(1, capacity)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            owner.store(pthread_self(), ordering: .releasing)
            // On the thread itself: a name given to Thread before start never reaches the kernel.
            ThreadName.setCurrent(name)
            ready.signal()
            run()
            // A finished thread's id may be reused by another, which must not pass for the lane.
            owner.store(0, ordering: .releasing)
            stopped.signal()
        }
        thread.start()
        ready.wait()
    }

    /// True when called from the work this lane runs.
    public var isCurrent: Bool {
        pthread_self() == owner.load(ordering: .acquiring)
    }

    /// Items refused so far: the queue was full, or the lane was shut down.
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Items waiting to run now (the one running not counted).
    public var waiting: Int { state.withLock { $0.waiting } }

    /// Queues `work` unless ``capacity`` items already wait or the lane is shut down; returns
    /// whether it was queued. Never blocks (one short lock). A refusal is counted in ``dropped``.
    @discardableResult
    public func tryEnqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        add(Job(run: work), bounded: true)
    }

    /// Queues `work` whatever the bound (for items that must not be lost, such as the end of a
    /// stream, and are few); false, and counted in ``dropped``, only after ``shutdown()``.
    @discardableResult
    public func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        add(Job(run: work), bounded: false)
    }

    /// Resumes once everything queued before the call has run (at once after a shutdown, when
    /// nothing is left to run).
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !enqueue({ continuation.resume() }) { continuation.resume() }
        }
    }

    /// Stops taking work, runs what is queued, and waits for the thread to end (unless called
    /// from the lane's own work, which cannot wait for itself). Idempotent.
    public func shutdown() {
        requestStop()
        waitUntilStopped()
    }

    /// The first half of ``shutdown()``: no new work, the thread ends once the queue is empty.
    func requestStop() {
        let first = state.withLock { state -> Bool in
            state.accepting = false
            defer { state.stopRequested = true }
            return !state.stopRequested
        }
        if first { wakeup.signal() }
    }

    /// The second half of ``shutdown()``; returns at once on the lane itself or when already waited for.
    func waitUntilStopped() {
        guard !isCurrent else { return }
        stopped.wait()
        // Let a second caller (or a second shutdown) through as well.
        stopped.signal()
    }

    private func add(_ job: Job, bounded: Bool) -> Bool {
        let queued = state.withLock { state -> Bool in
            guard state.accepting, !bounded || state.waiting < capacity else { return false }
            state.push(job)
            return true
        }
        if queued {
            wakeup.signal()
        } else {
            droppedCount.add(1, ordering: .relaxed)
        }
        return queued
    }

    /// The thread's body: one item per wakeup until a stop finds the queue empty. An item queued
    /// before the stop always runs: its wakeup may come after the stop's, so the stop is only
    /// obeyed when nothing waits.
    private func run() {
        while true {
            wakeup.wait()
            let (job, stop) = state.withLock { state -> (Job?, Bool) in
                let job = state.pop()
                return (job, job == nil && state.stopRequested)
            }
            if let job { job.run() }
            if stop { return }
        }
    }
}
