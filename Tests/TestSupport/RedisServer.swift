import AgentTransport
import Foundation
import Synchronization

/// A redis-server of the test's own (Debian's `redis-server`), on 127.0.0.1 and a free port with
/// its own data directory: started by the test, stopped on every path (``stop()`` from a defer,
/// and `scripts/test` kills any left over by the directory name it carries). Append-only with
/// an fsync per write, so a ``restart()`` keeps every job, as a deployment's Redis must.
public final class RedisServer: Sendable {
    public static let executable = "/usr/bin/redis-server"
    public static let cli = "/usr/bin/redis-cli"
    /// In every data directory's name, for scripts/test's cleanup.
    public static let directoryMark = "agentd-test-redis"

    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public let port: Int
    public let directory: String
    private let process = Mutex<ChildProcess?>(nil)

    public var url: String { "redis://127.0.0.1:\(port)/0" }

    /// Starts it and waits until it answers PING (at most 20 s).
    public init() async throws {
        port = try Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(Self.directoryMark)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await start()
    }

    deinit {
        stop()
    }

    /// Runs `redis-cli` against it; its output, trimmed.
    @discardableResult
    public func command(_ arguments: [String]) async throws -> String {
        let run = try await runTool(Self.cli, ["-h", "127.0.0.1", "-p", String(port)] + arguments)
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// SIGTERM (Redis writes its append-only file and exits), then the same port and directory again.
    public func restart() async throws {
        let old = process.withLock { $0 }
        await old?.terminate()
        try await start()
    }

    /// Stops it without waiting for it; removes its directory once it has ended. Idempotent.
    public func stop() {
        let old = process.withLock { process in
            defer { process = nil }
            return process
        }
        let directory = self.directory
        guard let old else { return }
        old.terminate { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Stops it and waits until it has ended (for a test that needs Redis down now).
    public func kill() async {
        let old = process.withLock { process in
            defer { process = nil }
            return process
        }
        await old?.terminate()
    }

    /// Starts it again after ``kill()``.
    public func start() async throws {
        let child = try ChildProcess(
            Self.executable,
            ["--port", String(port), "--bind", "127.0.0.1", "--dir", directory, "--appendonly", "yes", "--appendfsync", "always",
             "--save", "", "--daemonize", "no", "--protected-mode", "yes", "--logfile", "",
             // Redis rewrites its process title; this keeps the mark in it for scripts/test's pkill.
             "--proc-title-template", "{title} {listen-addr} {server-mode} \(Self.directoryMark)"],
            name: "redis-server:\(port)")
        process.withLock { $0 = child }
        try await pollUntil(timeout: .seconds(20), "redis-server on port \(port)") {
            guard child.isRunning else { return true }
            return (try? await command(["PING"])) == "PONG"
        }
        guard child.isRunning else {
            throw ChildProcess.Failure(description: "redis-server on port \(port) exited: \(child.stderr.suffix(1000))")
        }
    }

    /// A port nobody listens on now (``LoopbackPort``).
    public static func freePort() throws -> Int {
        try LoopbackPort.free()
    }
}
