import Foundation
import Synchronization
import Testing

/// A trait for tests whose bodies compute for a long while without awaiting (encoding and
/// decoding video and audio, checksums over megabytes): each runs on a lane of its own,
/// off Swift's cooperative pool.
///
/// The pool has one thread per core (two here) and hands them out first come, first served: a
/// body that computes for seconds holds its thread for seconds, and the whole suite starts at
/// once, so a task the code under test wakes (a timer, a connect) waits behind every such body
/// queued before it — a minute in the full suite, past the tests' deadlines. With this trait the
/// body and what it awaits run on the lanes (SE-0417 preference): it still takes its share of
/// the cores, but the pool stays free for short jobs.
public struct OffThePool: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(LaneExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffThePool {
    /// Runs the test (every test of a suite) off the cooperative pool: ``OffThePool``.
    public static var offThePool: Self { OffThePool() }
}

/// Serial dispatch queues, one per core, taking jobs in turn: as many heavy bodies at once as the
/// pool would run, on threads libdispatch adds beside the pool's.
final class LaneExecutor: TaskExecutor {
    static let shared = LaneExecutor()

    private let lanes: [DispatchQueue]
    private let next = Atomic(0)

    private init() {
        let count = max(1, ProcessInfo.processInfo.activeProcessorCount)
        lanes = (0..<count).map { DispatchQueue(label: "agentd.tests.lane.\($0)") }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let turn = UInt(bitPattern: next.wrappingAdd(1, ordering: .relaxed).oldValue)
        let lane = lanes[Int(turn % UInt(lanes.count))]
        lane.async { job.runSynchronously(on: executor) }
    }
}
