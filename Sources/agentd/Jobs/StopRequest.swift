import Foundation
import Synchronization

/// A one-shot "please stop" that any number of tasks can wait for: the API's DELETE, the
/// daemon's shutdown and the CLI's signals all end a job through one of these.
final class StopRequest: Sendable {
    private struct State {
        var requested = false
        var waiters: [UUID: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// True once ``request()`` was called.
    var isRequested: Bool { state.withLock { $0.requested } }

    /// Asks for the stop and wakes every waiter. Idempotent; safe from any thread.
    func request() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard !state.requested else { return [] }
            state.requested = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Waits for ``request()``. Returns true when the stop was requested, false when the waiting
    /// task was cancelled first (so a task group racing it against others can finish).
    @discardableResult
    func wait() async -> Bool {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow: Bool? = state.withLock { state in
                    if state.requested { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: false)
        }
    }
}
