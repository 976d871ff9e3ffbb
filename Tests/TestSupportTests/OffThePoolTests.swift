import Foundation
import Synchronization
import TestSupport
import Testing

/// A body that computes without awaiting, under `.offThePool`, leaves the cooperative pool to
/// others: with twice as many such bodies as the pool has threads, each holding its thread until
/// a task on the pool has run, every one sees that task run. On the pool, the first bodies would
/// hold every thread and their tasks would queue behind the bodies still waiting to start.
@Suite struct OffThePoolTests {
    final class Flag: Sendable {
        private let value = Atomic(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    @Test(.offThePool, arguments: 0..<(2 * ProcessInfo.processInfo.activeProcessorCount))
    func aComputingBodyLeavesThePoolFree(index: Int) {
        let ran = Flag()
        Task.detached { ran.set() }
        let deadline = ContinuousClock.now + .seconds(30)
        while !ran.isSet, ContinuousClock.now < deadline { usleep(1000) }
        #expect(ran.isSet, "body \(index): no task on the pool ran while it held its thread")
    }
}
