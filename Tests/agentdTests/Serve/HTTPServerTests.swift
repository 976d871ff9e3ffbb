import Agent
import AgentdCore
import Foundation
import TestSupport
import Synchronization
import Testing

@testable import agentd

/// The daemon's HTTP server against hostile or just unusual clients, over raw sockets, on an
/// in-process daemon: connections the client closes, pipelining, HEAD, bodies refused before they
/// are read, slow clients.
@Suite("HTTPServer", .serialized)
struct HTTPServerTests {
    @Test("keep-alive connections the client closes are closed by the server too (no CLOSE-WAIT left)")
    func clientClosesKeepAlive() async throws {
        let daemon = try InProcessDaemon()
        for _ in 0..<40 {
            let connection = try RawHTTPConnection(port: daemon.port)
            try await connection.sending("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.response().status == 200)
            connection.close()
        }
        // A client that half-closes after its requests gets every answer, then the server's EOF.
        let halfClosed = try RawHTTPConnection(port: daemon.port)
        try await halfClosed.sending(String(repeating: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", count: 3))
        halfClosed.shutdownWrite()
        for _ in 0..<3 { #expect(try await halfClosed.response().status == 200) }
        #expect(try await halfClosed.eof(), "the server closes a connection the client finished")
        halfClosed.close()
        try await pollUntil(timeout: .seconds(5), "the server to close the client-closed connections") {
            TCPTable.count(localPort: daemon.port, state: .closeWait) == 0
        }
        #expect(try await daemon.client.get("/healthz").status == 200)
        await daemon.shutdown()
    }

    @Test("pipelined requests in one write are all answered, in order; HEAD answers like GET without a body")
    func pipelining() async throws {
        let daemon = try InProcessDaemon()
        let connection = try RawHTTPConnection(port: daemon.port)
        let token = "Authorization: Bearer \(InProcessDaemon.token)\r\n"
        let bot = #"{"recipe": {"linger_ms": 0}}"#
        try await connection.sending(
            "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                + "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /v1/jobs/0123456789abcdef HTTP/1.1\r\nHost: x\r\n\(token)\r\n"
                + "GET /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /v1/bots HTTP/1.1\r\nHost: x\r\n\(token)Content-Length: \(bot.utf8.count)\r\n\r\n\(bot)"
                + "HEAD /v1/jobs HTTP/1.1\r\nHost: x\r\n\(token)\r\n"
                + "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        let health = try await connection.response()
        #expect(health.status == 200)
        let head = try await connection.response(bodyless: true)
        #expect(head.status == 200, "HEAD /healthz: \(head.status)")
        #expect(head.headers["content-length"] == String(health.body.count), "HEAD announces the GET body's length")
        #expect(try await connection.response().status == 404)
        #expect(try await connection.response().status == 401)
        let created = try await connection.response()
        #expect(created.status == 201, "\(created.text)")
        #expect(try await connection.response(bodyless: true).status == 200)
        #expect(try await connection.response().status == 404)
        // The connection stays usable.
        try await connection.sending("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await connection.response().status == 200)
        connection.close()
        await daemon.shutdown()
    }

    @Test("a body that would be refused is never read: 401 without the token, 413 over the limit (Content-Length or chunked)")
    func refusedBeforeTheBody() async throws {
        let daemon = try InProcessDaemon()
        let started = ContinuousClock.now
        // 300 MB announced, nothing sent: the answer must come anyway.
        let unauthenticated = try RawHTTPConnection(port: daemon.port)
        try await unauthenticated.sending("POST /v1/recordings HTTP/1.1\r\nHost: x\r\nContent-Length: 300000000\r\n\r\n{")
        let refused = try await unauthenticated.response()
        #expect(refused.status == 401)
        #expect(refused.headers["www-authenticate"] == "Bearer realm=\"agentd\"")
        #expect(refused.headers["connection"] == "close")
        #expect(try await unauthenticated.eof())

        let token = "Authorization: Bearer \(InProcessDaemon.token)\r\n"
        let tooLong = try RawHTTPConnection(port: daemon.port)
        try await tooLong.sending("POST /v1/bots HTTP/1.1\r\nHost: x\r\n\(token)Content-Length: \(RequestAdmission.maxBodyBytes + 1)\r\n\r\n")
        let large = try await tooLong.response()
        #expect(large.status == 413)
        #expect(large.json?["error"]?.stringValue?.contains("larger than") == true, "\(large.text)")

        // Chunked: refused as soon as the chunks pass the limit, while the client still sends.
        let chunked = try RawHTTPConnection(port: daemon.port)
        try await chunked.sending("POST /v1/bots HTTP/1.1\r\nHost: x\r\n\(token)Transfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x4000) + Array("\r\n".utf8)
        for _ in 0..<(RequestAdmission.maxBodyBytes / 0x4000 + 1) { try await chunked.sending(chunk) }
        #expect(try await chunked.response().status == 413)
        #expect(ContinuousClock.now - started < .seconds(5), "refusals do not wait for the body")

        #expect(try await daemon.client.get("/v1/jobs").json?["jobs"]?.arrayValue?.isEmpty == true, "no job was made")
        await daemon.shutdown()
        #expect(daemon.log.contains("\"status\":\"401\""), "the early refusal is logged like any answer")
    }

    @Test("a client that dribbles its headers gets 408 at the header deadline; the others are served meanwhile")
    func slowHeaders() async throws {
        var limits = HTTPLimits.standard
        limits.headers = .seconds(1)
        let daemon = try InProcessDaemon(limits: limits)
        let slow = try RawHTTPConnection(port: daemon.port, timeout: .seconds(25))
        try await slow.sending("GET /healthz HTTP/1.1\r\n")
        let dribbled = Task {
            // 20 s of dribbling: far past the 1 s deadline, so an answer well before it can only
            // be the cut (a loaded CI run took 4.3 s to see a cut that a 5 s dribble made ambiguous).
            for _ in 0..<200 {
                guard (try? await slow.sending("X-Slow: y\r\n")) != nil else { return }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .milliseconds(500) {
            #expect(try await daemon.client.get("/healthz").status == 200)
        }
        let answer = try await slow.response()
        dribbled.cancel()
        #expect(answer.status == 408)
        #expect(ContinuousClock.now - started < .seconds(10), "cut at the deadline, not when the client gives up after 20 s")
        await daemon.shutdown()
    }

    @Test("past the connection limit the oldest waiting connections are closed, so a flood of idle clients cannot lock /healthz out")
    func connectionLimit() async throws {
        var limits = HTTPLimits.standard
        limits.maxConnections = 8
        let daemon = try InProcessDaemon(limits: limits)
        // 24 clients that connect and send nothing, each well inside the 10 s header deadline.
        var idle: [RawHTTPConnection] = []
        for _ in 0..<24 { idle.append(try RawHTTPConnection(port: daemon.port, timeout: .seconds(5))) }
        // The server holds at most 8 (and one slot for the probe): the oldest are closed first.
        let started = ContinuousClock.now
        #expect(try await daemon.client.get("/healthz").status == 200)
        var closed = 0
        for connection in idle.prefix(15) {
            if try await connection.eof() { closed += 1 }
        }
        #expect(closed == 15, "\(closed) of the 15 oldest idle clients were closed by the server")
        #expect(ContinuousClock.now - started < .seconds(5), "closed to make room, not at the header deadline")
        // The newest are still open: a request on one is answered.
        try await idle[23].sending("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle[23].response().status == 200)
        for connection in idle { connection.close() }
        await daemon.shutdown()
    }
}

/// The API answers while Swift's cooperative pool is blocked (APIExecutor).
@Suite("APIExecutor", .serialized)
struct APIExecutorTests {
    @Test("with every cooperative thread blocked, /v1/jobs and /healthz still answer at once")
    func answersWhileThePoolIsBlocked() async throws {
        let daemon = try InProcessDaemon()
        let port = daemon.port
        let token = InProcessDaemon.token
        // Measured from a thread of its own once the pool is held, so the measurement needs no pool.
        let probe = PoolProbe()
        let poolHeld = DispatchSemaphore(value: 0)
        let prober = Thread {
            poolHeld.wait()
            var times: [Duration] = []
            for path in ["/v1/jobs", "/healthz"] {
                let started = ContinuousClock.now
                let connection = try? RawHTTPConnection(port: port, timeout: .seconds(10))
                try? connection?.send("GET \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n")
                if (try? connection?.readResponse().status) == 200 { times.append(ContinuousClock.now - started) }
                connection?.close()
            }
            probe.times.withLock { $0 = times }
        }
        prober.start()
        // Hold every thread of the pool (one per core) until the prober is done, or 8 s.
        let threads = ProcessInfo.processInfo.activeProcessorCount
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<threads {
                group.addTask {
                    if index == 0 { poolHeld.signal() }
                    let deadline = ContinuousClock.now + .seconds(8)
                    while probe.times.withLock({ $0 == nil }), ContinuousClock.now < deadline { usleep(1000) }
                }
            }
        }
        let times = try #require(probe.times.withLock { $0 }, "the prober did not finish while the pool was held")
        #expect(times.count == 2, "answered: \(times)")
        #expect(times.allSatisfy { $0 < .seconds(2) }, "\(times)")
        await daemon.shutdown()
    }
}

/// What the prober measured, shared with the pool's blockers.
final class PoolProbe: Sendable {
    let times = Mutex<[Duration]?>(nil)
}

/// The kernel's TCP table (/proc/net/tcp and tcp6): which sockets are in which state.
enum TCPTable {
    enum State: String {
        case closeWait = "08"
    }

    /// Sockets on `localPort` (any address) in `state`.
    static func count(localPort: UInt16, state: State) -> Int {
        let port = String(format: "%04X", localPort)
        return ["/proc/net/tcp", "/proc/net/tcp6"].reduce(0) { total, path in
            let lines = (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").dropFirst() ?? []
            return total + lines.filter { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[1].hasSuffix(":" + port) && fields[3] == state.rawValue
            }.count
        }
    }
}

extension RawHTTPConnection.Response {
    var json: JSONValue? { try? JSONValue(parsing: text) }
}
