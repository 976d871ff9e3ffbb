import AgentTransport
import Dispatch
import Synchronization

/// Holds a ``WorkerLane``'s thread inside one item until opened, so that what is queued after
/// it waits: for tests of what a full or busy lane does.
public final class LaneGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let entered = Atomic<Bool>(false)

    public init() {}

    /// Queues the holding item on `lane` (whatever its bound) and returns once the lane's
    /// thread is inside it; throws when the lane does not get there within five seconds.
    public func hold(_ lane: WorkerLane) async throws {
        let queued = lane.enqueue { [self] in
            entered.store(true, ordering: .releasing)
            semaphore.wait()
        }
        guard queued else { throw ChildProcess.Failure(description: "lane \(lane.name) is shut down") }
        try await pollUntil(timeout: .seconds(5), "lane \(lane.name) to enter the gate") { entered.load(ordering: .acquiring) }
    }

    /// Lets the lane go on (a second call lets a later hold through at once).
    public func open() { semaphore.signal() }
}
