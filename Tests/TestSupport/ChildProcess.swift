import Foundation
import Synchronization

/// A peer program the interop tests run beside them (aiortc scripts). Its stdout is collected
/// line by line, so tests can wait for a line with a deadline instead of sleeping; stderr is kept
/// for failure messages. `terminate()` is idempotent and runs on every test path via `defer`
/// (there without waiting: ``terminate(then:)``).
public final class ChildProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private let process: Process
    private let stdinPipe = Pipe()
    private let output = CapturedStreams()
    private let terminateSent = Atomic(false)
    public let name: String

    public init(_ executable: String, _ arguments: [String], name: String? = nil, environment: [String: String]? = nil,
                currentDirectory: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = stdinPipe
        self.process = process
        self.name = name ?? URL(fileURLWithPath: arguments.first ?? executable).lastPathComponent
        let output = self.output
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            output.appendStdout(data)
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            output.appendStderr(data)
        }
        try process.run()
    }

    deinit { terminate() }

    public var isRunning: Bool { process.isRunning }
    /// The exit status once the child has ended.
    public var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }
    public var stdoutLines: [String] { output.lines.withLock { $0 } }
    public var stderr: String { output.errorText.withLock { $0 } }

    /// Writes one line to the child's stdin.
    public func send(line: String) {
        stdinPipe.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the first stdout line starting with `prefix`.
    public func waitForLine(prefix: String, within limit: Duration) async throws -> String {
        try await waitForLine(timeout: limit) { $0.hasPrefix(prefix) }
    }

    /// Waits for the first stdout line matching `predicate`, polling until `timeout`. The lines
    /// are looked at once more at the deadline: a poll that woke late (the pool busy) must not
    /// miss a line that came in time.
    public func waitForLine(timeout: Duration, where predicate: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = stdoutLines.first(where: predicate) { return line }
            if !process.isRunning {
                if let line = stdoutLines.first(where: predicate) { return line }
                throw Failure(description: "\(name) exited with \(process.terminationStatus) before the line came; stderr: \(stderr.suffix(2000))")
            }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "\(name): no matching line within \(timeout); stderr: \(stderr.suffix(2000))")
    }

    /// Sends `signal` (SIGTERM, SIGINT, SIGKILL…) without waiting.
    public func send(signal: Int32) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
    }

    /// SIGTERM, then SIGKILL if it lingers 5 s; returns once it has ended (or been killed).
    /// Idempotent. The wait is on a thread of its own, off the cooperative pool.
    public func terminate() async {
        guard process.isRunning else { return }
        sendTerminateOnce()
        let process = self.process
        _ = try? await onOwnThread { Self.awaitExit(process) }
    }

    /// ``terminate()`` for `defer` blocks and deinit, which cannot await: the SIGTERM goes now,
    /// and the wait (with its SIGKILL after 5 s) goes to a thread of its own, followed by
    /// `cleanup` (what must wait for the child's end, such as removing its files). A test that
    /// reads what the child leaves behind awaits ``terminate()`` instead.
    public func terminate(then cleanup: (@Sendable () -> Void)? = nil) {
        guard process.isRunning else {
            cleanup?()
            return
        }
        // A second call (deinit after the defer) leaves the wait to the first one's thread.
        guard sendTerminateOnce() || cleanup != nil else { return }
        let process = self.process
        Thread {
            Self.awaitExit(process)
            cleanup?()
        }.start()
    }

    /// SIGTERM, unless a call before sent it; true when this call did.
    @discardableResult
    private func sendTerminateOnce() -> Bool {
        guard !terminateSent.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        process.terminate()
        return true
    }

    /// Blocks its thread until `process`, sent SIGTERM once (a second one may mean "now" to a
    /// child), has ended; SIGKILL if it lingers.
    private static func awaitExit(_ process: Process) {
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// What a child printed, split into lines as it arrives.
final class CapturedStreams: Sendable {
    let lines = Mutex<[String]>([])
    let errorText = Mutex<String>("")
    private let partial = Mutex<String>("")

    func appendStdout(_ data: Data) {
        let complete: [String] = partial.withLock { buffer in
            buffer += String(decoding: data, as: UTF8.self)
            var found: [String] = []
            while let newline = buffer.firstIndex(of: "\n") {
                found.append(String(buffer[..<newline]))
                buffer = String(buffer[buffer.index(after: newline)...])
            }
            return found
        }
        lines.withLock { $0 += complete }
    }

    func appendStderr(_ data: Data) {
        errorText.withLock { text in
            text += String(decoding: data, as: UTF8.self)
            if text.count > 20_000 { text = String(text.suffix(10_000)) }
        }
    }
}

