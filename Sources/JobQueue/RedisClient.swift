import Dispatch
import Synchronization

/// A Redis connection for async callers: commands run one at a time on the client's own
/// dispatch queue (hiredis blocks; Swift's cooperative pool must not), and a broken connection
/// is made again on a later call, not before its backoff (100 ms doubling to 5 s) has passed.
/// While Redis is away every call fails at once with ``RedisError/unavailable(_:)``; callers pace
/// their own retries. ``isUp`` says how the last call went, for /healthz.
public final class RedisClient: Sendable {
    public let url: RedisURL
    private let timeout: Duration
    private let queue: DispatchQueue
    /// Touched only on `queue`.
    private let link = Mutex(Link())
    private let up = Atomic<Bool>(false)

    private struct Link: ~Copyable {
        var connection: RedisConnection?
        var retryAt: ContinuousClock.Instant?
        var backoff = Duration.milliseconds(100)
        var lastError: String?
        var scripts: [String: String] = [:]
    }

    /// `timeout` bounds the connect and every command's reply (a blocking read's own block time
    /// must stay under it).
    public init(url: RedisURL, name: String, timeout: Duration = .seconds(5)) {
        self.url = url
        self.timeout = timeout
        queue = DispatchQueue(label: "agentd.redis.\(name)")
    }

    /// True when the last call reached Redis.
    public var isUp: Bool { up.load(ordering: .relaxed) }

    /// Why the last failed call failed (never a secret: hiredis's error text).
    public var lastError: String? { link.withLock { $0.lastError } }

    public func command(_ arguments: [String]) async throws(RedisError) -> RedisValue {
        try await onQueue { link throws(RedisError) in try Self.run(arguments, link: &link, client: self) }
    }

    /// Runs `script` with EVALSHA, loading it first if this connection's Redis lacks it.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws(RedisError) -> RedisValue {
        try await onQueue { link throws(RedisError) in
            let tail = [String(keys.count)] + keys + arguments
            if let sha = link.scripts[script.source] {
                switch Result(catching: { () throws(RedisError) in try Self.run(["EVALSHA", sha] + tail, link: &link, client: self) }) {
                case .success(let value):
                    return value
                case .failure(.command(let line)) where line.hasPrefix("NOSCRIPT"):
                    link.scripts[script.source] = nil  // Redis restarted and forgot it
                case .failure(let error):
                    throw error
                }
            }
            guard let sha = try Self.run(["SCRIPT", "LOAD", script.source], link: &link, client: self).text else {
                throw .unexpectedReply("SCRIPT LOAD of \(script.name) gave no digest")
            }
            link.scripts[script.source] = sha
            return try Self.run(["EVALSHA", sha] + tail, link: &link, client: self)
        }
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable (inout Link) throws(RedisError) -> T) async throws(RedisError) -> T {
        let result: Result<T, RedisError> = await withCheckedContinuation { continuation in
            queue.async {
                let result = self.link.withLock { link in Result { () throws(RedisError) in try body(&link) } }
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    private static func run(_ arguments: [String], link: inout Link, client: RedisClient) throws(RedisError) -> RedisValue {
        let connection = try connected(&link, client: client)
        do {
            let value = try connection.command(arguments)
            client.up.store(true, ordering: .relaxed)
            return value
        } catch {
            if connection.isBroken {
                broke(&link, error, client: client)
            }
            throw error
        }
    }

    private static func connected(_ link: inout Link, client: RedisClient) throws(RedisError) -> RedisConnection {
        if let connection = link.connection, !connection.isBroken { return connection }
        link.connection = nil
        if let retryAt = link.retryAt, ContinuousClock.now < retryAt {
            throw .unavailable(link.lastError ?? "reconnecting")
        }
        do {
            let connection = try RedisConnection(client.url, timeout: client.timeout)
            link.connection = connection
            link.retryAt = nil
            link.backoff = .milliseconds(100)
            link.lastError = nil
            return connection
        } catch {
            broke(&link, error, client: client)
            throw error
        }
    }

    private static func broke(_ link: inout Link, _ error: RedisError, client: RedisClient) {
        link.connection = nil
        link.lastError = error.description
        link.retryAt = ContinuousClock.now + link.backoff
        link.backoff = min(link.backoff * 2, .seconds(5))
        client.up.store(false, ordering: .relaxed)
    }
}
