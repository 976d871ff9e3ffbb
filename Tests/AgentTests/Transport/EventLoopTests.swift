import Synchronization
import Testing

@testable import Agent
@testable import AgentTransport

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

    /// A delay from outside (a token's expiry centuries ahead) must not trap the seconds → ms
    /// conversion: the timer is clamped to GLib's longest and simply does not fire soon.
    @Test func hugeDelaysAreClampedNotTrapped() async throws {
        let loop = EventLoop(name: "test.hugetimer")
        defer { loop.shutdown() }
        let fired = Mutex(0)
        let timers = [Duration.seconds(Int64.max), .seconds(Int64.max / 1000 + 1), .nanoseconds(Int64.max)].map { delay in
            loop.schedule(after: delay) { fired.withLock { $0 += 1 } }
        }
        try await loop.submit {}
        #expect(fired.withLock { $0 } == 0)
        for timer in timers { timer.cancel() }
    }
}

@Suite struct DurationSaturatingTests {
    @Test func secondsSaturateInsteadOfTrapping() {
        #expect(Duration.seconds(saturating: 1.5) == .milliseconds(1500))
        #expect(Duration.seconds(saturating: 1e10).totalNanoseconds == Int64.max)
        #expect(Duration.seconds(saturating: 9.3e18).totalNanoseconds == Int64.max)
        #expect(Duration.seconds(saturating: -1e300).totalNanoseconds == Int64.min)
        #expect(Duration.seconds(saturating: .infinity).totalNanoseconds == Int64.max)
        #expect(Duration.seconds(saturating: .nan) == .zero)
    }

    /// What Channel does with a far-future token's warning delay: sleep for it (until cancelled).
    @Test func sleepingTheLongestDelayDoesNotTrap() async {
        let sleeper = Task { try await Task.sleep(for: .seconds(saturating: 1e10)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func millisecondsSaturate() {
        #expect(Duration.milliseconds(1234).totalMilliseconds == 1234)
        #expect(Duration.seconds(Int64.max).totalMilliseconds == Int64.max)
        #expect(Duration.seconds(Int64.min).totalMilliseconds == Int64.min)
    }
}
