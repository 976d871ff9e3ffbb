import Foundation
import TestSupport
import Testing

/// runTool waits for its tool off Swift's cooperative pool: with more tools running than the
/// pool has threads, other tasks still run. Each tool waits for a file that only the test's own
/// task writes, once every tool has started; were the waits on the pool, that task would get no
/// thread until the tools gave up (after 10 s, exiting 1).
@Suite struct ToolRunTests {
    @Test("tools waiting for the test's own task: the task gets a thread, and every tool ends well")
    func theWaitLeavesThePoolFree() async throws {
        let scratch = try ScratchDirectory("toolrun")
        let go = scratch.path("go")
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<count {
                let script = """
                    touch '\(scratch.path("started-\(index)"))'
                    n=0
                    while [ ! -e '\(go)' ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n + 1)); done
                    [ -e '\(go)' ]
                    """
                group.addTask { try await runTool("/bin/sh", ["-c", script]).status }
            }
            try await pollUntil(timeout: .seconds(30), "every tool to start") {
                (0..<count).allSatisfy { FileManager.default.fileExists(atPath: scratch.path("started-\($0)")) }
            }
            FileManager.default.createFile(atPath: go, contents: nil)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == [Int32](repeating: 0, count: count), "a tool gave up waiting: \(statuses)")
    }

    @Test("stderr kept apart, merged, and stdin fed")
    func streams() async throws {
        let apart = try await runTool("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(apart.status == 3 && apart.output == "out\n" && apart.errors == "err\n")
        let merged = try await runTool("/bin/sh", ["-c", "echo out; echo err >&2"], includeStderr: true)
        #expect(merged.output.split(separator: "\n").sorted() == ["err", "out"] && merged.errors.isEmpty)
        let fed = try await runTool("/bin/cat", [], input: "fed\n")
        #expect(fed.output == "fed\n")
        // A tool that writes more on stderr than a pipe holds before it ends does not hang.
        let chatty = try await runTool("/bin/sh", ["-c", "head -c 200000 /dev/zero >&2; echo done"])
        #expect(chatty.output == "done\n" && chatty.errors.utf8.count == 200_000)
    }
}
