import Foundation
import Synchronization

/// The process's transport loops: a fixed number of ``EventLoop``s (by default one per core)
/// that every job, bot and command of the process shares, instead of a loop (a thread) per job.
/// A daemon with 20 recordings then runs them on `cores` threads, not 20.
///
/// ``next()`` hands out the loops round robin: each call takes the next one in turn, whatever
/// ran there before. (Least loaded would need every engine to say when it is done with a loop;
/// round robin keeps the group free of that bookkeeping, and jobs of similar weight end up
/// spread evenly.) A loop starts the first time it is handed out, so a command that never joins
/// a room (`agentd token`, `--help`) starts no thread.
///
/// Threads are named `name.0`, `name.1`, …: Linux keeps 15 bytes of a thread name, which
/// ``EventLoop`` enforces; the default `agentd.io` leaves room for four digits.
///
/// Only the group's owner (the process's entry point, or a test) calls ``shutdown()``; an
/// ``AgentEngine`` on the group leaves its loops running when it shuts down.
public final class LoopGroup: Sendable {
    /// The default thread name prefix.
    public static let defaultName = "agentd.io"

    /// How many loops the group has (started or not); at least one.
    public let count: Int
    /// The loops' name prefix.
    public let name: String
    private let state: Mutex<State>

    private struct State {
        /// One slot per loop, filled the first time ``next()`` hands it out.
        var loops: [EventLoop?]
        var turn = 0
        var shutDown = false
    }

    /// - Parameters:
    ///   - count: loops (threads); at least one. Defaults to the active processor count.
    ///   - name: the threads' name prefix, `name.0`, `name.1`, ….
    public init(count: Int = ProcessInfo.processInfo.activeProcessorCount, name: String = LoopGroup.defaultName) {
        self.count = max(1, count)
        self.name = name
        state = Mutex(State(loops: Array(repeating: nil, count: max(1, count))))
    }

    deinit {
        shutdown()
    }

    /// The next loop in turn (round robin), started now if it was not yet. After ``shutdown()``
    /// the loop handed out is stopped: work submitted to it fails with ``EventLoop/Stopped``.
    public func next() -> EventLoop {
        state.withLock { state in
            let index = state.turn
            state.turn = (state.turn + 1) % count
            if let loop = state.loops[index] { return loop }
            let loop = EventLoop(name: "\(name).\(index)")
            if state.shutDown { loop.shutdown() }
            state.loops[index] = loop
            return loop
        }
    }

    /// The loops started so far, in index order.
    public var startedLoops: [EventLoop] {
        state.withLock { $0.loops.compactMap { $0 } }
    }

    /// Stops every started loop and waits for its thread to end. Idempotent; for the group's
    /// owner only, once nothing runs on the loops any more.
    public func shutdown() {
        let loops = state.withLock { state -> [EventLoop] in
            state.shutDown = true
            return state.loops.compactMap { $0 }
        }
        for loop in loops { loop.shutdown() }
    }
}
