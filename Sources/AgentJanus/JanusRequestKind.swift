/// The Janus core request a transaction belongs to. It decides what counts as the final reply:
/// a plugin `message` is first acknowledged (`ack`) and answered later by an `event` carrying the
/// same transaction (or at once by `success` for synchronous plugin requests), while `keepalive`
/// and `trickle` are answered by the `ack` itself.
public enum JanusRequestKind: String, Sendable, Equatable {
    case create, attach, message, trickle, keepalive, detach, destroy, info, claim

    /// True when an `ack` completes the request.
    public var ackIsFinal: Bool {
        switch self {
        case .keepalive, .trickle: return true
        default: return false
        }
    }

    /// True when an `event` with this transaction is the final reply (asynchronous plugin reply).
    public var acceptsEventReply: Bool { self == .message }
}
