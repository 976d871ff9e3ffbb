/// Why a Redis call failed.
public enum RedisError: Error, Equatable, CustomStringConvertible {
    /// No connection: it could not be made, or it broke (the reason), and the client waits out
    /// its backoff before trying again.
    case unavailable(String)
    /// Redis answered the command with an error line (`ERR`, `NOSCRIPT`, `WRONGTYPE`…).
    case command(String)
    /// The reply was not what the command answers: a protocol or version mismatch.
    case unexpectedReply(String)
    /// The reply broke a limit (a string over ``RedisReplyBuilder/maximumStringBytes``, an array
    /// over ``RedisReplyBuilder/maximumArrayElements``): the connection is closed.
    case replyTooLarge(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "Redis is unavailable: \(reason)"
        case .command(let line): "Redis refused the command: \(line)"
        case .unexpectedReply(let what): "Redis answered unexpectedly: \(what)"
        case .replyTooLarge(let what): "a Redis reply broke a limit: \(what)"
        }
    }
}
