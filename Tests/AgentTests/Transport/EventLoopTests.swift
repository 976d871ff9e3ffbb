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
