import Dispatch
import Foundation

/// Runs blocking file work (opening a player's files and reading their headers) on a dispatch
/// queue of its own, never on the Swift cooperative pool.
///
/// The pool has one thread per core. A file that blocks (a slow disk, an NFS mount gone away)
/// must not hold one of them: on a 2-core machine two such bots used to stop every task in the
/// process, so the daemon's API stopped answering and SIGTERM was never acted on. Media files
/// are also opened through ``MediaFile``, which refuses FIFOs and devices at once; this queue is
/// for what can still be slow.
enum FileOpening {
    private static let queue = DispatchQueue(label: "agentd.file-opening", qos: .userInitiated, attributes: .concurrent)

    /// Runs `work` on the queue and returns what it made. Cancelling the waiting task, or
    /// `stop` returning, ends the wait at once with `CancellationError`; the work then finishes
    /// on its own thread and what it made is dropped (its files closed with it).
    /// - Parameter stop: returns when the wait should end (a signal); it is cancelled once the
    ///   work is done, and should then return.
    static func run<Value>(stoppingOn stop: (@Sendable () async -> Void)? = nil,
                           _ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        let handoff = Handoff<Value>()
        let watch = stop.map { stop in
            Task {
                await stop()
                handoff.cancel()
            }
        }
        defer { watch?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Error>) in
                guard handoff.wait(continuation) else { return }
                queue.async { handoff.finish(Result { try work() }) }
            }
        } onCancel: {
            handoff.cancel()
        }
    }
}

/// The one result of a ``FileOpening/run(stoppingOn:_:)``, handed from the queue to the waiting
/// task, or a cancellation, whichever comes first.
private final class Handoff<Value>: @unchecked Sendable {
    // @unchecked Sendable: `continuation` and `settled` are touched only under `lock`, and the
    // continuation is resumed exactly once (whoever takes it out of `continuation` resumes it).
    // The value crosses threads once: the queue's work made it and keeps no reference to it.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Error>?
    private var settled = false

    /// Keeps `continuation`; false (and resumed with CancellationError) if cancelled already.
    func wait(_ continuation: CheckedContinuation<Value, Error>) -> Bool {
        lock.lock()
        guard !settled else {
            lock.unlock()
            continuation.resume(throwing: CancellationError())
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    func finish(_ result: sending Result<Value, Error>) {
        take()?.resume(with: result)
    }

    func cancel() {
        take()?.resume(throwing: CancellationError())
    }

    private func take() -> CheckedContinuation<Value, Error>? {
        lock.lock()
        defer { lock.unlock() }
        settled = true
        let taken = continuation
        continuation = nil
        return taken
    }
}
