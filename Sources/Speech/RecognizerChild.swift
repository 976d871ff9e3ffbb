import Foundation

/// A command recognizer's child process and our ends of its stdin, stdout and stderr, driven
/// without ever blocking past a deadline: every descriptor is non-blocking and every wait is a
/// `poll` with a timeout. stdout and stderr are drained while we write, so a child that writes a
/// lot while we write to it cannot deadlock us.
///
/// Its stdin, stdout and stderr are Unix sockets, not pipes: a write to a child that died fails
/// with EPIPE (`MSG_NOSIGNAL`) instead of raising SIGPIPE, which would end the whole process, and
/// `socketpair` makes them close-on-exec atomically (Glibc's Swift module has no `pipe2`). The child runs
/// in a process group of its own, so killing it kills what it started too.
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
        var socketPair: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        let fail = { (what: String) -> SpeechRecognizerError in
            for fd in socketPair + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
            return .childSpawnFailed(command: configuration.executable, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        // Close-on-exec from birth, so a child another thread spawns meanwhile inherits none of them.
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &socketPair) == 0 else { throw fail("socketpair") }
        guard socketpair(AF_UNIX, kind, 0, &stdoutPipe) == 0 else { throw fail("socketpair") }
        guard socketpair(AF_UNIX, kind, 0, &stderrPipe) == 0 else { throw fail("socketpair") }
        var spawned: pid_t = 0
        let status = Self.spawn(configuration, stdin: socketPair[1], stdout: stdoutPipe[1], stderr: stderrPipe[1], pid: &spawned)
        close(socketPair[1])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard status == 0 else {
            for fd in [socketPair[0], stdoutPipe[0], stderrPipe[0]] { close(fd) }
            throw .childSpawnFailed(command: configuration.executable, reason: String(cString: strerror(status)))
        }
        pid = spawned
        input = socketPair[0]
        output = stdoutPipe[0]
        errors = stderrPipe[0]
        for fd in [input, output, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        kill()
        for fd in [input, output, errors] where fd >= 0 { close(fd) }
    }

    /// posix_spawnp with the three descriptors as stdin, stdout and stderr, default signal
    /// handlers and an empty signal mask (whatever ours are), in a new process group.
    private static func spawn(_ configuration: CommandRecognizerConfiguration, stdin: Int32, stdout: Int32, stderr: Int32,
                              pid: inout pid_t) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([configuration.executable] + configuration.arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let environment = configuration.environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for entry in environment ?? [] { free(entry) } }
        if let environment {
            return posix_spawnp(&pid, configuration.executable, &actions, &attributes, argv, environment)
        }
        return posix_spawnp(&pid, configuration.executable, &actions, &attributes, argv, environ)
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
        guard let status = reap() else {
            kill()
            return .childExited(status: exitStatus ?? -1, stderrTail: stderrTail)
        }
        return .childExited(status: status, stderrTail: stderrTail)
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
                throw .childProtocol(reason: "a line longer than \(maxLineBytes) bytes", stderrTail: stderrTail)
            }
        }
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

    /// A wait status as an exit code, or 128 + the signal that ended the child.
    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
