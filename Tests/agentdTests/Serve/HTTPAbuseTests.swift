import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// `agentd serve` under a hostile mix of clients, as a real process so its descriptors and memory
/// can be read from /proc: 10,000 requests (keep-alive, one per connection, HTTP/1.0), 50
/// slowloris clients, oversized bodies without the token. /healthz is timed the whole while.
/// Afterwards the daemon holds no more descriptors than before and its RSS is back near its
/// baseline.
@Suite("HTTPAbuse", .serialized, .enabled(if: LabEnvironment.shouldRunTimed))
struct HTTPAbuseTests {
    static let requests = 10_000
    static let workers = 8
    static let slowClients = 50
    /// /healthz must answer within this while the abuse runs.
    static let healthLimit = Duration.milliseconds(100)
    /// RSS after the abuse may exceed the warmed-up baseline by this much (allocator pools,
    /// libsoup's and GLib's caches). Without the body checks one 300 MB body alone added ~900 MB.
    static let rssTolerance = 24 << 20

    @Test("10,000 mixed requests, 50 slowloris clients and oversized bodies: descriptors and RSS back to baseline, /healthz fast throughout")
    func abuse() async throws {
        // The 100 ms bound is about the daemon, not about two cores shared with a browser or an
        // aiortc peer: take the cores as the interop tests do.
        try await SharedResourceLock.lab.withExclusive { try await checkAbuse() }
    }

    private func checkAbuse() async throws {
        let daemon = try await DaemonProcess.startWithoutLab()
        defer { daemon.finish() }
        let pid = try #require(daemon.pid, "the daemon's pid")
        let port = try #require(UInt16(daemon.client.base.split(separator: ":").last.map(String.init) ?? ""))
        let startDescriptors = try #require(ProcessSample.descriptors(pid))

        // Warm up (allocator pools, libsoup's first use), then take the baselines. The count at
        // start may hold a descriptor a starting thread had open for a moment (a thread names
        // itself through /proc/thread-self/comm), so the baseline is the count once the warm-up's
        // connections are closed, never above the count at start.
        try await Self.onThreads(2) { worker in try Self.load(port: port, count: 200, worker: worker) }
        try await pollUntil(timeout: .seconds(10), "the warm-up connections to close (\(startDescriptors) descriptors at start)") {
            (ProcessSample.descriptors(pid) ?? .max) <= startDescriptors
        }
        let baselineDescriptors = try #require(ProcessSample.descriptors(pid))
        let baselineRSS = try #require(ProcessSample.residentBytes(pid))

        let monitor = HealthMonitor(port: port)
        let monitoring = Thread { monitor.run() }
        monitoring.start()
        let started = ContinuousClock.now
        async let slow: [Int] = Self.onThreads(1) { _ in try Self.slowloris(port: port, clients: Self.slowClients) }.flatMap { $0 }
        async let bodies: [Int] = Self.onThreads(1) { _ in try Self.oversizedBodies(port: port) }.flatMap { $0 }
        let perWorker = Self.requests / Self.workers
        try await Self.onThreads(Self.workers) { worker in try Self.load(port: port, count: perWorker, worker: worker) }
        let slowAnswers = try await slow
        let bodyAnswers = try await bodies
        monitor.stop()
        let elapsed = ContinuousClock.now - started

        #expect(slowAnswers.count == Self.slowClients)
        #expect(slowAnswers.allSatisfy { $0 == 408 }, "slow clients: \(Set(slowAnswers))")
        #expect(bodyAnswers.allSatisfy { $0 == 401 || $0 == 413 }, "oversized bodies: \(bodyAnswers)")
        let health = monitor.results
        #expect(health.probes > 20, "/healthz was probed \(health.probes) times in \(elapsed)")
        #expect(health.failures == 0, "/healthz failed \(health.failures) of \(health.probes) times")
        #expect(health.slowest < Self.healthLimit, "slowest /healthz: \(health.slowest) (\(health.probes) probes)")

        try await pollUntil(timeout: .seconds(15), "the daemon's descriptors to return to \(baselineDescriptors)") {
            (ProcessSample.descriptors(pid) ?? .max) <= baselineDescriptors
        }
        #expect(TCPTable.count(localPort: port, state: .closeWait) == 0)
        let rss = try #require(ProcessSample.residentBytes(pid))
        #expect(rss <= baselineRSS + Self.rssTolerance, "RSS \(rss >> 20) MiB after, \(baselineRSS >> 20) MiB before")
        #expect(try await daemon.client.get("/healthz").status == 200)
        print("HTTPAbuse: \(Self.requests) requests in \(elapsed); /healthz slowest \(health.slowest) over \(health.probes) probes; "
            + "RSS \(baselineRSS >> 20) → \(rss >> 20) MiB; descriptors \(baselineDescriptors)")
    }

    /// `count` requests over raw sockets, mixing keep-alive runs, one-request connections and
    /// HTTP/1.0, authorized and not, GET and HEAD.
    static func load(port: UInt16, count: Int, worker: Int) throws -> [Int] {
        let token = "Authorization: Bearer \(DaemonProcess.token)\r\n"
        var done = 0
        var round = worker
        while done < count {
            round += 1
            switch round % 3 {
            case 0:  // keep-alive: up to 20 requests on one connection, some pipelined
                let connection = try RawHTTPConnection(port: port)
                let batch = min(20, count - done)
                for index in 0..<batch {
                    switch index % 5 {
                    case 0: try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    case 1: try connection.send("GET /v1/jobs HTTP/1.1\r\nHost: x\r\n\(token)\r\n")
                    case 2: try connection.send("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    case 3: try connection.send("GET /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n")
                    default: try connection.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
                    }
                    let expected: [Int] = [[200], [200], [200], [401], [404, 200]][index % 5]
                    for status in expected {
                        let response = try connection.readResponse(bodyless: index % 5 == 2)
                        guard response.status == status else { throw RawHTTPConnection.Failure(description: "got \(response.status), not \(status)") }
                    }
                    done += expected.count
                }
                connection.close()
            case 1:  // one request, Connection: close
                let connection = try RawHTTPConnection(port: port)
                try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                _ = try connection.readResponse()
                guard try connection.readsEOF() else { throw RawHTTPConnection.Failure(description: "Connection: close was kept open") }
                connection.close()
                done += 1
            default:  // HTTP/1.0, no Host
                let connection = try RawHTTPConnection(port: port)
                try connection.send("GET /v1/jobs HTTP/1.0\r\n\(token)\r\n")
                _ = try connection.readResponse()
                connection.close()
                done += 1
            }
        }
        return []
    }

    /// `clients` connections that dribble header lines and never finish them: the answer (or 0
    /// when the server only closed) each gets.
    @available(*, noasync, message: "blocks for seconds on its sockets: run it on a thread of its own (onThreads)")
    static func slowloris(port: UInt16, clients: Int) throws -> [Int] {
        let connections = try (0..<clients).map { _ in try RawHTTPConnection(port: port, timeout: .seconds(30)) }
        for connection in connections { try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n") }
        // Well past the daemon's 10 s header limit: the daemon ends them, not this loop.
        let deadline = ContinuousClock.now + .seconds(25)
        var statuses = [Int](repeating: 0, count: clients)
        var open = Array(connections.indices)
        var line = 0
        while !open.isEmpty, ContinuousClock.now < deadline {
            line += 1
            open = open.filter { index in
                let connection = connections[index]
                if connection.hasInput {
                    statuses[index] = (try? connection.readResponse().status) ?? 0
                    connection.close()
                    return false
                }
                return (try? connection.send("X-Dribble-\(line): y\r\n")) != nil
            }
            usleep(250_000)
        }
        for connection in connections { connection.close() }
        return statuses
    }

    /// Bodies the daemon must refuse unread: 300 MB announced without the token (some of it
    /// sent), a chunked body without the token, and one over the limit with it.
    @available(*, noasync, message: "blocks for seconds on its sockets: run it on a thread of its own (onThreads)")
    static func oversizedBodies(port: UInt16) throws -> [Int] {
        var statuses: [Int] = []
        let megabyte = [UInt8](repeating: 0x7B, count: 1 << 20)
        for round in 0..<20 {
            let connection = try RawHTTPConnection(port: port)
            switch round % 3 {
            case 0:
                try connection.send("POST /v1/recordings HTTP/1.1\r\nHost: x\r\nContent-Length: 300000000\r\n\r\n")
                for _ in 0..<3 { _ = try? connection.send(megabyte) }
            case 1:
                try connection.send("POST /v1/bots HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                _ = try? connection.send(Array("100000\r\n".utf8) + megabyte + Array("\r\n".utf8))
            default:
                try connection.send(
                    "POST /v1/bots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(DaemonProcess.token)\r\nContent-Length: 300000000\r\n\r\n")
            }
            statuses.append((try? connection.readResponse().status) ?? 0)
            connection.close()
        }
        return statuses
    }

    /// Runs `work(index)` on `count` threads of their own (blocking sockets must not sit on the
    /// few threads of Swift's cooperative pool) and returns what they returned, or the first error.
    static func onThreads(_ count: Int, _ work: @escaping @Sendable (Int) throws -> [Int]) async throws -> [[Int]] {
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for index in 0..<count {
                group.addTask { try await onOwnThread { try work(index) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}

/// Probes /healthz on a fresh connection every 25 ms and keeps the slowest answer.
final class HealthMonitor: Sendable {
    struct Results {
        var probes = 0
        var failures = 0
        var slowest = Duration.zero
    }

    let port: UInt16
    private let state = Mutex<(stopped: Bool, results: Results)>((false, Results()))

    init(port: UInt16) { self.port = port }

    var results: Results { state.withLock { $0.results } }

    func stop() { state.withLock { $0.stopped = true } }

    @available(*, noasync, message: "blocks for seconds on its sockets: run it on a thread of its own (onThreads)")
    func run() {
        while !state.withLock({ $0.stopped }) {
            let started = ContinuousClock.now
            let ok = (try? probe()) == 200
            let took = ContinuousClock.now - started
            state.withLock { state in
                state.results.probes += 1
                if !ok { state.results.failures += 1 }
                state.results.slowest = max(state.results.slowest, took)
            }
            usleep(25_000)
        }
    }

    private func probe() throws -> Int {
        let connection = try RawHTTPConnection(port: port, timeout: .seconds(2))
        defer { connection.close() }
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        return try connection.readResponse().status
    }
}

/// A process's descriptors and resident memory, read from /proc.
enum ProcessSample {
    static func descriptors(_ pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    static func residentBytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
