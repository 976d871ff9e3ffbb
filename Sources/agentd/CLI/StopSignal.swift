import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a clean stop: the first one asks the command to finish and
/// finalize its files; the default action (kill) is suppressed while the command runs.
final class StopSignal: @unchecked Sendable {
    // @unchecked Sendable: `sources` is written only in init and read in cancel(), both on the
    // creating thread; the continuation is guarded by `lock`.
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var received: Int32?
    private var waiters: [UUID: CheckedContinuation<Int32, Never>] = [:]

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.fire(number) }
            source.resume()
            sources.append(source)
        }
    }

    private func fire(_ number: Int32) {
        lock.lock()
        if received == nil { received = number }
        let pending = waiters.values
        waiters.removeAll()
        lock.unlock()
        for waiter in pending { waiter.resume(returning: number) }
    }

    /// Waits for the first signal. Returns 0 if the waiting task is cancelled, so a task group
    /// racing it against a timer can finish.
    func wait() async -> Int32 {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.lock()
                if let received {
                    lock.unlock()
                    continuation.resume(returning: received)
                    return
                }
                if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: 0)
                    return
                }
                waiters[id] = continuation
                lock.unlock()
            }
        } onCancel: {
            lock.lock()
            let waiter = waiters.removeValue(forKey: id)
            lock.unlock()
            waiter?.resume(returning: 0)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
