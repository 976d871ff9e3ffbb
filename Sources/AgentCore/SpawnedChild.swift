import Glibc

/// A child process started with our ends of its stdin, stdout and stderr: the program a
/// command speech recognizer or a voice agent's command responder talks to in JSON lines.
///
/// The three are Unix sockets, not pipes: a write to a child that died fails with EPIPE
/// (`MSG_NOSIGNAL`) instead of raising SIGPIPE, which would end the whole process, and
/// `socketpair` makes them close-on-exec atomically (Glibc's Swift module has no `pipe2`). Our
/// ends are non-blocking. The child runs in a process group of its own with default signal
/// handlers and an empty signal mask, so killing its group kills what it started too.
public struct SpawnedChild: Sendable {
    public let pid: pid_t
    /// Our ends: write to `input`, read `output` and `errors`. The owner closes them.
    public let input: Int32
    public let output: Int32
    public let errors: Int32

    /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`, and
    /// `environment` as its whole environment (nil: ours).
    /// - Throws: ``SpawnFailure`` with the reason (strerror).
    public static func spawn(_ executable: String, arguments: [String], environment: [String: String]? = nil) throws(SpawnFailure) -> SpawnedChild {
        var stdinPair: [Int32] = [-1, -1]
        var stdoutPair: [Int32] = [-1, -1]
        var stderrPair: [Int32] = [-1, -1]
        let fail = { (what: String) -> SpawnFailure in
            let reason = String(cString: strerror(errno))
            for fd in stdinPair + stdoutPair + stderrPair where fd >= 0 { close(fd) }
            return SpawnFailure(reason: "\(what): \(reason)")
        }
        // Close-on-exec from birth, so a child another thread spawns meanwhile inherits none of them.
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &stdinPair) == 0 else { throw fail("socketpair") }
        guard socketpair(AF_UNIX, kind, 0, &stdoutPair) == 0 else { throw fail("socketpair") }
        guard socketpair(AF_UNIX, kind, 0, &stderrPair) == 0 else { throw fail("socketpair") }
        var pid: pid_t = 0
        let status = spawn(executable, arguments: arguments, environment: environment,
                           stdin: stdinPair[1], stdout: stdoutPair[1], stderr: stderrPair[1], pid: &pid)
        for fd in [stdinPair[1], stdoutPair[1], stderrPair[1]] { close(fd) }
        guard status == 0 else {
            for fd in [stdinPair[0], stdoutPair[0], stderrPair[0]] { close(fd) }
            throw SpawnFailure(reason: String(cString: strerror(status)))
        }
        for fd in [stdinPair[0], stdoutPair[0], stderrPair[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return SpawnedChild(pid: pid, input: stdinPair[0], output: stdoutPair[0], errors: stderrPair[0])
    }

    /// A wait status as an exit code, or 128 + the signal that ended the child.
    public static func exitCode(ofWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    private static func spawn(_ executable: String, arguments: [String], environment: [String: String]?,
                              stdin: Int32, stdout: Int32, stderr: Int32, pid: inout pid_t) -> Int32 {
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
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let entries = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for entry in entries ?? [] { free(entry) } }
        if let entries {
            return posix_spawnp(&pid, executable, &actions, &attributes, argv, entries)
        }
        return posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
    }
}

/// Why a child could not be started.
public struct SpawnFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
