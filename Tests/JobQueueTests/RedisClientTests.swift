import JobQueue
import TestSupport
import Testing

/// A Redis that refuses connections: every call is a typed error, never a crash. (A refused
/// connect once freed hiredis's context in RedisConnection's init and again in its deinit: the
/// first call aborted the process.)
@Suite("RedisClient")
struct RedisClientTests {
    @Test("a refused connection is .unavailable on every call, with hiredis's reason, and isUp stays false")
    func refusedConnectionIsATypedError() async throws {
        let port = try RedisServer.freePort()
        let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: port), name: "refused", timeout: .seconds(2))
        var reasons: [String] = []
        for _ in 0..<30 {
            do {
                _ = try await client.command(["PING"])
                Issue.record("PING to a port nobody listens on answered")
            } catch {
                guard case .unavailable(let reason) = error else {
                    Issue.record("not .unavailable: \(error)")
                    continue
                }
                reasons.append(reason)
            }
        }
        #expect(reasons.count == 30)
        #expect(reasons.first?.contains("cannot connect to 127.0.0.1:\(port)") == true, "\(reasons.first ?? "")")
        #expect(!client.isUp && client.lastError != nil)
    }
}
