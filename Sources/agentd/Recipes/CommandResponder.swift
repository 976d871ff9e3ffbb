import Agent
import AgentdCore
import Dispatch
import Foundation
import Synchronization

/// The `command` responder: a program of the user's (their LLM, a dialogue manager) that reads
/// JSON lines on stdin and answers with JSON lines on stdout (docs/agent-responder-protocol.md):
///
///     → {"type":"joined","name":"alice"}
///     → {"type":"transcript","from":"alice","text":"what time is it","start_ms":5120,"end_ms":6030}
///     ← {"say":"It is eight fifteen."}
///
/// Answers may come at any time, not only after a transcript. A line we cannot read is skipped
/// and counted (``ResponderLineError``), and the program goes on. Its stderr passes through to
/// ours, for its own logs.
///
/// **Threads.** One thread reads the program's stdout (poll with a timeout, so it also sees a
/// stop); a serial queue writes its stdin, at most ``maximumWaitingLines`` lines waiting (more
/// are dropped and counted). A program that does not take a line within ``writeTimeout`` is
/// killed: it stopped reading, and nothing it says can be trusted to follow the conversation.
/// When the program exits by itself, `exited` gets its status and the agent's run ends.
final class CommandResponder: AgentResponder, @unchecked Sendable {
    // @unchecked Sendable: the descriptors are set in init and never change; `reader` is
    // written in init; everything mutable sits behind `state` (a Mutex) or is atomic.

    struct Counters: Sendable, Equatable {
        var linesSent = 0
        var linesDropped = 0
        var answers = 0
        var badLines = 0
    }

    static let maximumWaitingLines = 256
    static let writeTimeout = Duration.seconds(5)
    /// How long a stopping program has, after its stdin closes, before it is killed.
    static let exitGrace = Duration.seconds(2)

    private let child: SpawnedChild
    private let command: String
    private let writer = DispatchQueue(label: "agentd.agent.responder.writer")
    private let waiting = Atomic<Int>(0)
    /// When ``stop()`` was asked for (nil: not yet): the reader kills the program ``exitGrace`` later.
    private let stopRequested = Mutex<ContinuousClock.Instant?>(nil)
    private let state = Mutex<(counters: Counters, finished: Bool, waiters: [CheckedContinuation<Void, Never>])>((Counters(), false, []))

    /// - Parameters:
    ///   - answer: each answer the program gives, on the reader thread.
    ///   - exited: the program ended by itself (not through ``stop()``): its exit status and a line saying so.
    /// - Throws: ``SpawnFailure`` when the program cannot be started.
    init(executable: String, arguments: [String], answer: @escaping @Sendable (ResponderAnswer) -> Void,
         exited: @escaping @Sendable (Int32, String) -> Void, log: @escaping @Sendable (String) -> Void) throws {
        // Its stderr goes to ours: the socket's other end is read below and copied out.
        child = try SpawnedChild.spawn(executable, arguments: arguments)
        command = URL(fileURLWithPath: executable).lastPathComponent
        let thread = Thread { [self] in
            read(answer: answer, log: log)
            let status = reap()
            let byItself = !isStopping
            let waiters = state.withLock { state in
                state.finished = true
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
            if byItself { exited(status, "the responder \(command) exited with status \(status)") }
        }
        thread.name = "agentd.agent.responder"
        thread.start()
    }

    deinit {
        for fd in [child.input, child.output, child.errors] { close(fd) }
    }

    var counters: Counters { state.withLock { $0.counters } }

    /// The program's process id (for tests that check it is gone).
    var pid: pid_t { child.pid }

    func hear(_ event: AgentHeard) {
        let line = Self.line(for: event) + "\n"
        if waiting.add(1, ordering: .relaxed).oldValue >= Self.maximumWaitingLines {
            waiting.subtract(1, ordering: .relaxed)
            state.withLock { $0.counters.linesDropped += 1 }
            return
        }
        writer.async { [self] in
            waiting.subtract(1, ordering: .relaxed)
            guard !isStopping else { return }
            if write(Array(line.utf8)) {
                state.withLock { $0.counters.linesSent += 1 }
            } else {
                state.withLock { $0.counters.linesDropped += 1 }
            }
        }
    }

    /// Closes the program's stdin, gives it ``exitGrace`` to exit, then kills its group; returns
    /// once it is reaped. Idempotent.
    func stop() async {
        // The reader thread kills the program once the grace has passed (it wakes every 200 ms):
        // a timer task on the cooperative pool could wait behind a busy pool.
        let first = stopRequested.withLock { asked in
            defer { asked = asked ?? .now }
            return asked == nil
        }
        if first {
            writer.async { [child] in _ = shutdown(child.input, Int32(SHUT_WR)) }
        }
        await finished()
    }

    private var isStopping: Bool { stopRequested.withLock { $0 != nil } }

    /// The JSON line a program gets for `event`.
    static func line(for event: AgentHeard) -> String {
        let object: [String: JSONValue] = switch event {
        case .transcript(let from, let text, let startMs, let endMs):
            ["type": .string("transcript"), "from": .string(from), "text": .string(text), "start_ms": .integer(startMs), "end_ms": .integer(endMs)]
        case .joined(let name): ["type": .string("joined"), "name": .string(name)]
        case .left(let name): ["type": .string("left"), "name": .string(name)]
        case .interrupted(let by): ["type": .string("interrupted"), "by": .string(by)]
        case .data(let from, let text): ["type": .string("data"), "from": .string(from), "text": .string(text)]
        }
        return JSONValue.object(object).serialized()
    }

    private func finished() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if !state.finished { state.waiters.append(waiter) }
                return state.finished
            }
            if done { waiter.resume() }
        }
    }

    /// Writes all of `bytes` within ``writeTimeout``; a program that does not take them is killed.
    private func write(_ bytes: [UInt8]) -> Bool {
        let deadline = ContinuousClock.now + Self.writeTimeout
        var written = 0
        while written < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return send(child.input, base + written, raw.count - written, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                written += sent
                continue
            }
            guard sent < 0, errno == EAGAIN || errno == EINTR else { return false }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, !isStopping else {
                if remaining <= .zero { kill() }
                return false
            }
            var descriptor = pollfd(fd: child.input, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
        return true
    }

    /// The reader thread: stdout lines become answers until stdout closes; stderr is copied to ours.
    private func read(answer: @Sendable (ResponderAnswer) -> Void, log: @Sendable (String) -> Void) {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var line: [UInt8] = []
        var skipping = false
        var outputOpen = true
        var errorsOpen = true
        var killed = false
        while outputOpen {
            var descriptors = [pollfd(fd: child.output, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: errorsOpen ? child.errors : -1, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, 200)
            if !killed, let asked = stopRequested.withLock({ $0 }), ContinuousClock.now - asked >= Self.exitGrace {
                kill()
                killed = true
            }
            if errorsOpen {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(child.errors, $0.baseAddress, $0.count) }
                if count > 0 {
                    chunk.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, count) }
                } else if count == 0 {
                    errorsOpen = false
                }
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(child.output, $0.baseAddress, $0.count) }
            if count == 0 { outputOpen = false }
            guard count > 0 else { continue }
            for byte in chunk[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    if !skipping { handle(line, answer: answer, log: log) }
                    line.removeAll(keepingCapacity: true)
                    skipping = false
                } else if !skipping {
                    line.append(byte)
                    if line.count > ResponderAnswer.maximumLineBytes {
                        // Counted once, and the rest of the line is dropped as it comes.
                        bad(.tooLong(bytes: line.count), log: log)
                        line.removeAll(keepingCapacity: true)
                        skipping = true
                    }
                }
            }
        }
    }

    private func handle(_ bytes: [UInt8], answer: @Sendable (ResponderAnswer) -> Void, log: @Sendable (String) -> Void) {
        guard !bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) else { return }
        do {
            let parsed = try ResponderAnswer(line: String(decoding: bytes, as: UTF8.self))
            state.withLock { $0.counters.answers += 1 }
            answer(parsed)
        } catch {
            bad(error, log: log)
        }
    }

    private func bad(_ error: ResponderLineError, log: @Sendable (String) -> Void) {
        let count = state.withLock { state in
            state.counters.badLines += 1
            return state.counters.badLines
        }
        // The first few are worth a line each; a program that writes nothing but garbage is not.
        if count <= 5 { log("agent: skipped a line from the responder \(command): \(error)") }
    }

    private func kill() {
        _ = Glibc.kill(-child.pid, SIGKILL)
        _ = Glibc.kill(child.pid, SIGKILL)
    }

    /// Waits for the program's exit (it closed stdout, so it is exiting or was killed); kills
    /// it after ``exitGrace`` if it lingers with stdout closed.
    private func reap() -> Int32 {
        let deadline = ContinuousClock.now + Self.exitGrace
        var status: Int32 = 0
        while true {
            let result = waitpid(child.pid, &status, WNOHANG)
            if result == child.pid { return SpawnedChild.exitCode(ofWaitStatus: status) }
            if result < 0 && errno != EINTR { return -1 }
            if ContinuousClock.now >= deadline {
                kill()
                while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
                return SpawnedChild.exitCode(ofWaitStatus: status)
            }
            usleep(10_000)
        }
    }
}
