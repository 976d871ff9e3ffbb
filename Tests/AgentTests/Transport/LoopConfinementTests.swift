import Foundation
import Testing
import TestSupport

@testable import Agent
@testable import AgentTransport

/// Loop confinement is checked in release builds too: the release build of `agentd-loopcheck`
/// dies by a trap, naming the violation, when it touches a ``LoopBound`` value off its loop, and
/// exits 0 when it touches it on the loop. The binary comes from
/// `swift build -c release --product agentd-loopcheck` (scripts/test builds it); without it this
/// test fails rather than pass on nothing.
@Suite struct LoopConfinementTests {
    static let binary = Repository.root.appendingPathComponent(".build/release/agentd-loopcheck")

    struct Run {
        let status: Int32
        let reason: Process.TerminationReason
        let stderr: String
    }

    static func run(_ arguments: [String]) async throws -> Run {
        let stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent("loopcheck-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: stderrFile) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        // The crash backtracer would take seconds to symbolicate; the message is what we read.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
        do {
            try await pollUntil(timeout: .seconds(30), "agentd-loopcheck \(arguments) exits") { !process.isRunning }
        } catch {
            process.terminate()
            throw error
        }
        let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
        return Run(status: process.terminationStatus, reason: process.terminationReason, stderr: stderr)
    }

    @Test func theReleaseBuildTrapsOnAnOffLoopAccessAndPassesAnOnLoopOne() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.binary.path),
            "no release build of agentd-loopcheck at \(Self.binary.path): run `swift build -c release --product agentd-loopcheck` first")

        let onLoop = try await Self.run([])
        #expect(onLoop.reason == .exit && onLoop.status == 0, "on-loop run: \(onLoop.reason) \(onLoop.status), stderr: \(onLoop.stderr)")

        let offLoop = try await Self.run(["off-loop"])
        #expect(offLoop.reason == .uncaughtSignal, "an off-loop access must trap, got \(offLoop.reason) \(offLoop.status)")
        #expect(offLoop.status == SIGTRAP || offLoop.status == SIGILL, "trap signal, got \(offLoop.status)")
        #expect(offLoop.stderr.contains("agentd.loopcheck: transport state touched off its loop"), "stderr: \(offLoop.stderr.prefix(2000))")
    }

    /// In this (debug) build as well: on the loop the check passes and a LoopBound reads and writes.
    @Test func aLoopBoundValueIsUsableOnItsLoop() throws {
        let loop = EventLoop(name: "test.loopbound")
        defer { loop.shutdown() }
        let count = LoopBound(1, loop: loop)
        let seen = try loop.sync {
            count.value += 1
            return count.withValue { value in
                value *= 10
                return value
            }
        }
        #expect(seen == 20)
        #expect(!loop.inLoop)
        #expect(try loop.sync { loop.inLoop })
    }

    /// After shutdown no thread passes for the loop (a reused thread id must not).
    @Test func aStoppedLoopHasNoThread() throws {
        let loop = EventLoop(name: "test.stopped")
        #expect(try loop.sync { loop.inLoop })
        loop.shutdown()
        #expect(!loop.inLoop)
    }
}
