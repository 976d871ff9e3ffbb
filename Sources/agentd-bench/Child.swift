import Foundation
import Synchronization

/// A program the benchmark runs (agentd, aiortc peers). Stdout is collected line by line so the
/// runner can wait for `READY` with a deadline; stderr goes to a log file named in errors.
/// Every child is registered with `ChildRegistry`, so Ctrl-C and error paths end it too.
final class Child: Sendable {
    let name: String
    let logPath: String
    private let process: Process
    private let lines = Mutex<[String]>([])
    private let partial = Mutex<Data>(Data())

    init(name: String, executable: String, arguments: [String], logPath: String) throws(BenchError) {
        self.name = name
        self.logPath = logPath
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        guard FileManager.default.createFile(atPath: logPath, contents: nil),
            let log = FileHandle(forWritingAtPath: logPath)
        else { throw BenchError("cannot create \(logPath)") }
        process.standardError = log
        let stdout = Pipe()
        process.standardOutput = stdout
        self.process = process
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                return
            }
            self?.append(data)
        }
        do {
            try process.run()
        } catch {
            throw BenchError("cannot start \(name) (\(executable)): \(error.localizedDescription)")
        }
        try? log.close()
        ChildRegistry.shared.add(self)
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }
    var stdoutLines: [String] { lines.withLock { $0 } }

    private func append(_ data: Data) {
        partial.withLock { buffer in
            buffer.append(data)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                lines.withLock { $0.append(line) }
            }
        }
    }

    /// Polls for a stdout line starting with `prefix` until `timeout`; fails at once when the
    /// child exits first, naming its log.
    func waitForLine(prefix: String, timeout: TimeInterval) throws(BenchError) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stdoutLines.contains(where: { $0.hasPrefix(prefix) }) { return }
            if let status = exitStatus {
                throw BenchError("\(name) exited with status \(status) before \(prefix) (\(lastLogLine()))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw BenchError("\(name) printed no \(prefix) within \(Int(timeout)) s (\(lastLogLine()))")
    }

    /// Waits until the child has exited, at most `timeout`; true when it has.
    @discardableResult
    func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }

    /// SIGTERM, then SIGKILL after `grace` seconds. Idempotent; safe from any thread.
    func stop(grace: TimeInterval = 5) {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        if !waitForExit(timeout: grace) {
            kill(pid, SIGKILL)
            waitForExit(timeout: 2)
        }
    }

    /// The log's last non-empty line, for one-line error messages.
    func lastLogLine() -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let last = text.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        return last.map { "last log line: \($0.prefix(200)); log \(logPath)" } ?? "log \(logPath) is empty"
    }
}
