/// A Lua script run with EVALSHA, loaded on first use (and again after a Redis restart, which
/// forgets its scripts).
public struct RedisScript: Sendable, Hashable {
    public let name: String
    public let source: String

    public init(name: String, source: String) {
        self.name = name
        self.source = source
    }
}
