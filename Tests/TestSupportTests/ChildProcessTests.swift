import Foundation
import TestSupport
import Testing

/// Stopping a child does not hold a thread of Swift's cooperative pool while the child takes
/// its time: each child here notes its SIGTERM and ends only once the test's own task writes a
/// file, which it does when every child has noted one. Were the waits on the pool, that task
/// would get no thread until the waits gave up and killed the children (after 5 s; left alone,
/// a child ends after a minute).
@Suite struct ChildProcessTests {
    static func lingering(in scratch: ScratchDirectory, _ index: Int) throws -> ChildProcess {
        let script = """
            trap 'touch "\(scratch.path("term-\(index)"))"' TERM
            n=0
            while [ ! -e '\(scratch.path("go"))' ] && [ $n -lt 6000 ]; do sleep 0.01; n=$((n + 1)); done
            echo READY-TO-END
            """
        return try ChildProcess("/bin/sh", ["-c", script], name: "lingering \(index)")
    }

    @Test("awaited terminate: the children end on their own, none is killed")
    func awaitedTerminateLeavesThePoolFree() async throws {
        let scratch = try ScratchDirectory("childprocess")
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount
        let children = try (0..<count).map { try Self.lingering(in: scratch, $0) }
        await withTaskGroup(of: Void.self) { group in
            for child in children { group.addTask { await child.terminate() } }
            _ = try? await pollUntil(timeout: .seconds(30), "every child to note its SIGTERM") {
                (0..<count).allSatisfy { FileManager.default.fileExists(atPath: scratch.path("term-\($0)")) }
            }
            FileManager.default.createFile(atPath: scratch.path("go"), contents: nil)
        }
        for child in children {
            #expect(!child.isRunning)
            #expect(child.exitStatus == 0, "\(child.name) was killed (status \(String(describing: child.exitStatus)))")
        }
    }

    @Test("terminate from a defer returns at once; the child still gets its SIGTERM, and SIGKILL later")
    func deferredTerminateReturnsAtOnce() async throws {
        let scratch = try ScratchDirectory("childprocess-defer")
        let child = try Self.lingering(in: scratch, 0)
        // Called where a defer block calls it: outside an async context, the form that cannot wait.
        let stopAsADeferDoes: () -> Void = { child.terminate() }
        let started = ContinuousClock.now
        stopAsADeferDoes()
        #expect(ContinuousClock.now - started < .seconds(2), "terminate waited for the child")
        try await pollUntil(timeout: .seconds(10), "the child's SIGTERM") { FileManager.default.fileExists(atPath: scratch.path("term-0")) }
        try await pollUntil(timeout: .seconds(15), "the SIGKILL after 5 s") { !child.isRunning }
        #expect(child.exitStatus == SIGKILL, "status \(String(describing: child.exitStatus))")
    }

    @Test("a line that came before the deadline is found by a poll that wakes after it")
    func aLatePollStillFindsTheLine() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo READY; sleep 10"], name: "ready")
        defer { child.terminate() }
        try await pollUntil(timeout: .seconds(10), "the line") { child.stdoutLines.contains("READY") }
        // The deadline has passed by the time the wait first looks (as after a late wake-up).
        #expect(try await child.waitForLine(prefix: "READY", within: .zero) == "READY")
    }
}
