import Foundation
import JobQueue
import TestSupport

/// A queue on a redis-server of the test's own.
struct JobQueueRedis {
    let server: RedisServer
    let queue: JobQueue

    /// True where redis-server is installed; scripts/test installs it and sets
    /// AGENTD_REQUIRE_LAB, so in CI a missing server fails the suites instead of skipping them.
    static var shouldRun: Bool {
        RedisServer.isInstalled || ProcessInfo.processInfo.environment["AGENTD_REQUIRE_LAB"] != nil
    }

    init() async throws {
        server = try await RedisServer()
        guard let url = RedisURL(server.url), let keys = JobQueueKeys(prefix: "test") else {
            throw ChildProcess.Failure(description: "bad url \(server.url)")
        }
        queue = JobQueue(client: RedisClient(url: url, name: "test", timeout: .seconds(3)), keys: keys)
        try await queue.prepare()
    }

    /// Another client on the same queue (a second worker or API node).
    func peer(_ name: String) -> JobQueue {
        JobQueue(client: RedisClient(url: queue.client.url, name: name, timeout: .seconds(3)), keys: queue.keys)
    }

    func stop() { server.stop() }
}
