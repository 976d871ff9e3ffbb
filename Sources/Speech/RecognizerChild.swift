import AgentCore
import Foundation

/// A command recognizer's child process and our ends of its stdin, stdout and stderr, driven
/// without ever blocking past a deadline: every descriptor is non-blocking and every wait is a
/// `poll` with a timeout. stdout and stderr are drained while we write, so a child that writes a
/// lot while we write to it cannot deadlock us.
///
/// ``SpawnedChild`` starts it: Unix sockets for its stdin, stdout and stderr (EPIPE, not SIGPIPE,
/// for a child that died), in a process group of its own.
///
/// Not thread-safe: ``CommandSpeechRecognizer`` owns it behind its lock.
final class RecognizerChild {
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private let errors: Int32
    private let maxLineBytes: Int
    private let stderrLimit: Int
    private var lineBuffer: [UInt8] = []
    private var stderrBytes: [UInt8] = []
    private var outputClosed = false
    private var exitStatus: Int32?
    /// Where reads land, kept so a drain on every feed allocates nothing.
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(configuration: CommandRecognizerConfiguration) throws(SpeechRecognizerError) {
        maxLineBytes = configuration.maxLineBytes
        stderrLimit = configuration.stderrTailBytes
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(configuration.executable, arguments: configuration.arguments, environment: configuration.environment)
        } catch {
            throw .childSpawnFailed(command: configuration.executable, reason: error.reason)
        }
        pid = child.pid
        input = child.input
        output = child.output
        errors = child.errors
    }

    deinit {
        kill()
        for fd in [input, output, errors] where fd >= 0 { close(fd) }
    }

    /// What the child wrote on stderr lately (its last bytes), for error messages.
    var stderrTail: String { String(decoding: stderrBytes, as: UTF8.self) }

    /// Writes `bytes` to the child's stdin while handing each stdout line to `handle` as it comes,
    /// until `handle` returns true for one (or, when `waitForAnswer` is false, until the bytes
    /// are written and what stdout has now is read). A child that does not take the bytes or
    /// answer by `deadline` is `.childHung`; one whose stdout closes is `.childExited`; an error
    /// `handle` throws (a line that breaks the protocol) ends the exchange.
    func exchange(_ bytes: [UInt8], deadline: ContinuousClock.Instant, waitedMs: Int, waitForAnswer: Bool,
                  handle: (String) throws(SpeechRecognizerError) -> Bool) throws(SpeechRecognizerError) {
        var written = 0
        var answered = !waitForAnswer
        while true {
            if written < bytes.count {
                let sent = bytes.withUnsafeBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return send(input, base + written, raw.count - written, Int32(MSG_NOSIGNAL))
                }
                if sent > 0 {
                    written += sent
                } else if sent < 0, errno != EAGAIN, errno != EINTR {
                    throw exited()
                }
            }
            var lines: [String] = []
            try drain(into: &lines)
            for line in lines where try handle(line) { answered = true }
            if written == bytes.count && answered { return }
            if outputClosed { throw exited() }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw .childHung(waitedMs: waitedMs, stderrTail: stderrTail) }
            wait(writing: written < bytes.count, upTo: remaining)
        }
    }

    /// Closes the child's stdin (it reads end of file) and waits for it to exit by `deadline`.
    /// Returns its status; a child that lingers is killed and is `.childHung`.
    func closeInputAndWait(deadline: ContinuousClock.Instant, waitedMs: Int) throws(SpeechRecognizerError) -> Int32 {
        shutdown(input, Int32(SHUT_WR))
        var lines: [String] = []
        while true {
            // Output after the end is read and dropped, so a chatty child can still exit.
            try? drain(into: &lines)
            lines.removeAll()
            if let status = reap() { return status }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                kill()
                throw .childHung(waitedMs: waitedMs, stderrTail: stderrTail)
            }
            wait(writing: false, upTo: min(remaining, .milliseconds(20)))
        }
    }

    /// SIGKILL to the child's group and the child, then its exit collected. Idempotent.
    func kill() {
        guard exitStatus == nil else { return }
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = Self.decode(status)
    }

    /// The error for a child whose stdin or stdout closed: it exited (or is about to).
    private func exited() -> SpeechRecognizerError {
        let deadline = ContinuousClock.now + .seconds(1)
        var lines: [String] = []
        while reap() == nil && ContinuousClock.now < deadline {
            try? drain(into: &lines)
            wait(writing: false, upTo: .milliseconds(10))
        }
        let status = reap()
        if status == nil { kill() }
        // A child that had exited before the first look wrote its last words without being read:
        // they wait in the socket, and the loop above may not have run once.
        drainErrors()
        return .childExited(status: status ?? exitStatus ?? -1, stderrTail: stderrTail)
    }

    /// Reads what stdout and stderr have now; complete stdout lines go to `lines`.
    private func drain(into lines: inout [String]) throws(SpeechRecognizerError) {
        while !outputClosed {
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count == 0 { outputClosed = true }
            guard count > 0 else { break }
            lineBuffer += chunk[0..<count]
            while let newline = lineBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                guard newline <= maxLineBytes else { break }
                lines.append(String(decoding: lineBuffer[..<newline], as: UTF8.self))
                lineBuffer.removeSubrange(...newline)
            }
            guard lineBuffer.count <= maxLineBytes else {
                drainErrors()
                throw .childProtocol(reason: "a line longer than \(maxLineBytes) bytes", stderrTail: stderrTail)
            }
        }
        drainErrors()
    }

    /// Reads what stderr has now into the kept tail.
    private func drainErrors() {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            stderrBytes += chunk[0..<count]
            if stderrBytes.count > stderrLimit { stderrBytes.removeFirst(stderrBytes.count - stderrLimit) }
        }
    }

    /// Blocks until a descriptor is ready or `limit` passes.
    private func wait(writing: Bool, upTo limit: Duration) {
        var descriptors = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        if writing { descriptors.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
        let milliseconds = max(1, min(1_000, limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000))
        _ = poll(&descriptors, nfds_t(descriptors.count), Int32(milliseconds))
    }

    /// The exit status if the child has exited (collected once), else nil.
    private func reap() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            exitStatus = Self.decode(status)
        } else if result < 0 && errno == ECHILD {
            exitStatus = -1
        }
        return exitStatus
    }

    private static func decode(_ status: Int32) -> Int32 {
        SpawnedChild.exitCode(ofWaitStatus: status)
    }
}
