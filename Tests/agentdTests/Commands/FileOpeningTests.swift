import Foundation
import Testing

@testable import agentd

/// Blocking file work runs on a queue of its own, off the cooperative pool, and a cancelled or
/// stopped wait ends at once.
@Suite struct FileOpeningTests {
    @Test func returnsWhatTheWorkMadeOffThePool() async throws {
        let value = try await FileOpening.run { () -> [Int] in
            #expect(!Thread.isMainThread)
            return [1, 2, 3]
        }
        #expect(value == [1, 2, 3])
        await #expect(throws: CommandFailure.self) {
            try await FileOpening.run { () -> Int in throw CommandFailure(.usage, "bad file") }
        }
    }

    /// The work is stuck (a file that never answers): cancelling the task, or the stop
    /// returning, ends the wait while the work still blocks.
    @Test func cancellationAndStopEndTheWaitWhileTheWorkBlocks() async throws {
        let release = DispatchSemaphore(value: 0)
        defer { release.signal(); release.signal() }
        let waiting = Task { try await FileOpening.run { () -> Int in release.wait(); return 1 } }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }

        let stop = Shared(false)
        let stopped = Task {
            try await FileOpening.run(stoppingOn: {
                while !stop.current { try? await Task.sleep(for: .milliseconds(5)) }
            }) { () -> Int in release.wait(); return 2 }
        }
        stop.withLock { $0 = true }
        await #expect(throws: CancellationError.self) { try await stopped.value }
    }
}
