import Dispatch
import Foundation
import Synchronization

/// Every child the benchmark started, so that Ctrl-C (SIGINT), SIGTERM and error exits end
/// them all (SIGTERM, then SIGKILL) instead of leaving aiortc peers running in the lab.
final class ChildRegistry: Sendable {
    static let shared = ChildRegistry()

    private let children = Mutex<[Child]>([])
    /// Held for the whole of `stopAll`, so a second caller (the main thread after Ctrl-C) waits
    /// until the first has really ended every child instead of exiting beside it.
    private let stopping = Mutex<Void>(())
    private let interruptedFlag = Atomic<Int32>(0)

    /// The signal that interrupted the run, or 0.
    var interruptedBy: Int32 { interruptedFlag.load(ordering: .acquiring) }

    func add(_ child: Child) { children.withLock { $0.append(child) } }

    /// Stops every child still running, in parallel so a slow one does not hold up the rest.
    func stopAll(grace: TimeInterval = 5) {
        stopping.withLock { _ in
            let running = children.withLock { list in
                let running = list.filter(\.isRunning)
                list.removeAll()
                return running
            }
            for child in running where child.isRunning { kill(child.pid, SIGTERM) }
            DispatchQueue.concurrentPerform(iterations: running.count) { running[$0].stop(grace: grace) }
        }
    }

    /// On SIGINT or SIGTERM: stop every child, then exit 130 (or 143). The caller keeps the
    /// returned sources alive for the life of the process.
    func installSignalHandlers() -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                ChildRegistry.shared.interruptedFlag.store(number, ordering: .releasing)
                Console.error("interrupted, stopping children")
                ChildRegistry.shared.stopAll(grace: 3)
                _exit(128 + number)  // output is unbuffered; _exit cannot race the main thread's exit
            }
            source.resume()
            return source
        }
    }
}
