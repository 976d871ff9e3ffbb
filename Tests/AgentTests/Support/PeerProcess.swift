import Foundation
import Synchronization

/// A test peer (e.g. the aiortc publisher) run as a child process. Its stdout lines are
/// collected so a test can await a line such as `READY …` with a deadline; stderr is kept for
/// failure messages. ``terminate()`` is idempotent and safe from `defer`.
final class PeerProcess: Sendable {
    private let process: Process
    let lines: EventCollector<String>
    private let stderrText = TextBuffer()
    private let exited = Atomic<Bool>(false)

    init(executable: URL, arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let pending = Mutex<String>("")
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            let complete = pending.withLock { buffer -> [String] in
                buffer += String(decoding: data, as: UTF8.self)
                var lines = buffer.components(separatedBy: "\n")
                buffer = lines.removeLast()
                return lines
            }
            for line in complete { continuation.yield(line) }
        }
        let stderrText = self.stderrText
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            stderrText.text.withLock { text in
                text += String(decoding: data, as: UTF8.self)
                if text.utf8.count > 64_000 { text = String(text.suffix(32_000)) }
            }
        }
        self.process = process
        lines = EventCollector(stream)
        try process.run()
    }

    /// Waits for a stdout line starting with `prefix`.
    /// - Throws: ``DeadlineExceeded``, or a failure naming the exit and stderr when the peer ends first.
    func waitForLine(prefix: String, within limit: Duration) async throws -> String {
        do {
            if let line = try await lines.first(within: limit, where: { $0.hasPrefix(prefix) }) { return line }
        } catch let error as DeadlineExceeded {
            throw PeerFailure(message: "\(error); stderr: \(stderr.suffix(2000))")
        }
        throw PeerFailure(message: "peer exited before printing \(prefix); stderr: \(stderr.suffix(2000))")
    }

    var stderr: String { stderrText.text.withLock { $0 } }

    /// SIGTERM, then SIGKILL if it has not exited within `grace`. Idempotent.
    func terminate(grace: Duration = .seconds(5)) {
        guard !exited.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + grace
        while process.isRunning && ContinuousClock.now < deadline {
            usleep(20_000)  // polling the exit with a deadline, not waiting for readiness
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { terminate() }
}

private final class TextBuffer: Sendable {
    let text = Mutex<String>("")
}

struct PeerFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
