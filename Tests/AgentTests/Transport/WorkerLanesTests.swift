import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

@testable import Agent
@testable import AgentTransport

/// The worker lanes: work of one key runs in order on one thread that is not the caller's, a
/// full lane refuses at once and counts, and shutdown runs what was queued and refuses the rest.
@Suite(.offThePool) struct WorkerLanesTests {
    @Test func workOfOneKeyRunsInOrderOnOneLaneThatIsNotTheCallers() async {
        let lanes = WorkerLanes(count: 3, capacity: 10_000, name: "test.order")
        defer { lanes.shutdown() }
        let caller = pthread_self()
        let seen = Mutex<[Int: [Int]]>([:])
        let threads = Mutex<[Int: Set<pthread_t>]>([:])
        let onLane = Atomic<Int>(0)
        for index in 0..<3_000 {
            let key = index % 2 == 0 ? 7 : 8
            let queued = lanes.tryEnqueue(key: key) {
                seen.withLock { $0[key, default: []].append(index) }
                threads.withLock { _ = $0[key, default: []].insert(pthread_self()) }
                if lanes.lane(for: key).isCurrent { onLane.add(1, ordering: .relaxed) }
            }
            #expect(queued)
        }
        await lanes.flush()
        let order = seen.withLock { $0 }
        #expect(order[7] == Array(stride(from: 0, to: 3_000, by: 2)), "key 7's work in the order it was queued")
        #expect(order[8] == Array(stride(from: 1, to: 3_000, by: 2)), "key 8's work in the order it was queued")
        let used = threads.withLock { $0 }
        #expect(used[7]?.count == 1 && used[8]?.count == 1, "one thread per key")
        #expect(used[7] != used[8], "keys 7 and 8 map to different lanes of three")
        #expect(!(used[7] ?? []).contains(caller) && !(used[8] ?? []).contains(caller), "never on the caller's thread")
        #expect(onLane.load(ordering: .relaxed) == 3_000, "each item saw its own lane as current")
        #expect(!lanes.lanes.contains { $0.isCurrent }, "the caller is on no lane")
        #expect(lanes.dropped == 0)
    }

    @Test func lanesAreTakenInTurnAndKeysOfAnySignPickOne() {
        let lanes = WorkerLanes(count: 3, capacity: 4, name: "test.turn")
        defer { lanes.shutdown() }
        let picked = (0..<6).map { _ in lanes.nextLane() }
        #expect(picked.map { lane in lanes.lanes.firstIndex { $0 === lane } } == [0, 1, 2, 0, 1, 2])
        #expect(lanes.lane(for: -1) === lanes.lane(for: -1))
        #expect(lanes.lane(for: Int.min) === lanes.lane(for: Int.min))
        #expect(lanes.lanes.map(\.name) == ["test.turn.0", "test.turn.1", "test.turn.2"])
        #expect(lanes.count == 3 && lanes.capacity == 4)
        let clamped = WorkerLanes(count: 0, capacity: 0, name: "test.clamp")
        defer { clamped.shutdown() }
        #expect(clamped.count == 1 && clamped.capacity == 1)
    }

    /// The kernel shows each lane's name (what `top -H` and a thread count see), not its creator's.
    @Test func laneThreadsCarryTheirNamesInTheKernel() async {
        let lanes = WorkerLanes(count: 2, capacity: 4, name: "test.named")
        defer { lanes.shutdown() }
        let seen = Mutex<[String]>([])
        for lane in lanes.lanes {
            _ = lane.enqueue {
                let name = ThreadNames.callingThread
                seen.withLock { $0.append(name) }
            }
        }
        await lanes.flush()
        #expect(seen.withLock { $0 }.sorted() == ["test.named.0", "test.named.1"], "two lanes, in either order")
        #expect(ThreadNames.current.count(prefix: "test.named.") == 2, "\(ThreadNames.current.summary)")
    }

    /// A lane held up by slow work: `capacity` items wait, the rest are refused at once and
    /// counted, and only the queued ones run once it moves again.
    @Test func aFullLaneRefusesAtOnceAndCountsInsteadOfBlocking() async throws {
        let lanes = WorkerLanes(count: 1, capacity: 4, name: "test.bound")
        defer { lanes.shutdown() }
        let lane = lanes.lane(for: 0)
        let gate = LaneGate()
        try await gate.hold(lane)
        let ran = Mutex<[Int]>([])
        let outcomes = Mutex<[Bool]>([])
        let finished = Atomic<Bool>(false)
        // Off this task, so a tryEnqueue that blocked would show as a timeout, not a hang.
        DispatchQueue.global().async {
            for index in 0..<10 {
                let queued = lane.tryEnqueue { ran.withLock { $0.append(index) } }
                outcomes.withLock { $0.append(queued) }
            }
            finished.store(true, ordering: .releasing)
        }
        defer { gate.open() }
        try await pollUntil(timeout: .seconds(5), "ten tryEnqueue calls on a held lane to return") { finished.load(ordering: .acquiring) }
        #expect(outcomes.withLock { $0 } == [true, true, true, true] + Array(repeating: false, count: 6))
        #expect(lane.waiting == 4)
        #expect(lane.dropped == 6 && lanes.dropped == 6)
        #expect(lane.enqueue { ran.withLock { $0.append(99) } }, "enqueue ignores the bound")
        #expect(lane.waiting == 5)
        gate.open()
        await lanes.flush()
        #expect(ran.withLock { $0 } == [0, 1, 2, 3, 99])
        #expect(lane.dropped == 6, "what was queued ran; nothing else was lost")
        #expect(lane.tryEnqueue { ran.withLock { $0.append(100) } }, "room again once drained")
        await lane.flush()
        #expect(ran.withLock { $0 }.last == 100)
    }

    /// Shutdown runs what was queued before it, waits for it, then refuses (and counts) new
    /// work; it is idempotent, and a lane's own work may shut its set down without waiting for itself.
    @Test func shutdownDrainsWhatWasQueuedThenRefuses() async throws {
        let lanes = WorkerLanes(count: 2, capacity: 100, name: "test.stop")
        let gate = LaneGate()
        try await gate.hold(lanes.lane(for: 0))
        let ran = Atomic<Int>(0)
        for key in 0..<20 { #expect(lanes.tryEnqueue(key: key) { ran.add(1, ordering: .relaxed) }) }
        let shutDown = Atomic<Bool>(false)
        DispatchQueue.global().async {
            lanes.shutdown()
            shutDown.store(true, ordering: .releasing)
        }
        // Shutdown stops intake at once, before the held lane has drained.
        try await pollUntil(timeout: .seconds(5), "shutdown to refuse new work") { !lanes.lane(for: 1).enqueue {} }
        let returnedEarly = shutDown.load(ordering: .acquiring)
        #expect(!returnedEarly, "shutdown waits for the held lane")
        gate.open()
        try await pollUntil(timeout: .seconds(5), "shutdown to return") { shutDown.load(ordering: .acquiring) }
        #expect(ran.load(ordering: .relaxed) == 20, "everything queued before the shutdown ran")
        let droppedBefore = lanes.dropped
        #expect(!lanes.tryEnqueue(key: 0) { ran.add(1, ordering: .relaxed) })
        #expect(!lanes.lane(for: 1).enqueue { ran.add(1, ordering: .relaxed) })
        #expect(lanes.dropped == droppedBefore + 2, "refusals after shutdown are counted")
        await lanes.flush()  // returns at once: nothing can be pending
        lanes.shutdown()
        #expect(ran.load(ordering: .relaxed) == 20)

        let own = WorkerLanes(count: 1, capacity: 4, name: "test.self")
        let stoppedItself = Atomic<Bool>(false)
        own.tryEnqueue(key: 0) {
            own.shutdown()
            stoppedItself.store(true, ordering: .releasing)
        }
        try await pollUntil(timeout: .seconds(5), "a lane's own work to shut its set down") { stoppedItself.load(ordering: .acquiring) }
        own.shutdown()
        #expect(!own.tryEnqueue(key: 0) {})
    }
}
