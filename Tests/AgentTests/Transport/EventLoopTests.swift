import Synchronization
import Testing

@testable import Agent

@Suite struct EventLoopTests {
    @Test func executeRunsOnTheLoopThread() throws {
        let loop = EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        #expect(!loop.inLoop)
        let ranInLoop = try loop.sync { loop.inLoop }
        #expect(ranInLoop)
    }

    @Test func workRunsInSubmissionOrder() async throws {
        let loop = EventLoop(name: "test.order")
        defer { loop.shutdown() }
        let seen = Mutex<[Int]>([])
        for i in 0..<100 { loop.execute { seen.withLock { $0.append(i) } } }
        let all = try await loop.submit { seen.withLock { $0 } }
        #expect(all == Array(0..<100))
    }

    @Test func shutdownIsIdempotent() {
        let loop = EventLoop(name: "test.shutdown")
        loop.shutdown()
        loop.shutdown()
    }
}

@Suite struct LoopTimerTests {
    @Test func firesOnTheLoopUntilCancelled() async throws {
        let loop = EventLoop(name: "test.timer")
        defer { loop.shutdown() }
        let fired = Mutex<[Bool]>([])
        let timer = loop.scheduleRepeating(every: .milliseconds(5)) { fired.withLock { $0.append(loop.inLoop) } }
        let deadline = ContinuousClock.now + .seconds(5)
        while fired.withLock({ $0.count }) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(fired.withLock { $0.count } >= 3)
        #expect(fired.withLock { $0.allSatisfy { $0 } })
        timer.cancel()
        timer.cancel()
        // After a round trip through the loop no tick is pending; the count must stay put.
        try await loop.submit {}
        let settled = fired.withLock { $0.count }
        try await loop.submit {}
        try await Task.sleep(for: .milliseconds(30))  // several intervals: a live timer would fire
        #expect(fired.withLock { $0.count } == settled)
    }
}
