/// Pending Janus transactions, and what an incoming message means for them.
///
/// A plain value: it takes incoming messages and returns what to do, so the ack/reply/event
/// rules are tested with JSON fixtures and no sockets (see JanusConnection for the I/O).
///
/// Rules (Janus 1.x JSON API):
/// - `ack`: final for keepalive/trickle; for a plugin `message` it only says "received, answer
///   follows", so the request keeps waiting.
/// - `success` / `error` with a pending transaction: final (error → ``JanusError/server``).
/// - `event` with the transaction of a pending `message`: the plugin's asynchronous answer, final.
/// - anything else (`event` without a known transaction, webrtcup, media, hangup, slowlink,
///   detached, timeout, trickle from Janus): an event for the session/handle it names.
/// - a reply whose transaction is unknown (late, after a timeout): stray, to be dropped.
public struct JanusTransactionTable<Waiter> {
    public enum Disposition {
        /// Non-final ack: the request stays pending.
        case ack(transaction: String)
        /// The final reply for a pending request, which is now removed.
        case reply(Waiter, Result<JanusMessage, JanusError>)
        /// Not a reply: route it to the session/handle.
        case event(JanusMessage)
        /// A reply nobody waits for any more.
        case stray(JanusMessage)
    }

    private struct Entry {
        let kind: JanusRequestKind
        let waiter: Waiter
    }

    private var pending: [String: Entry] = [:]

    public init() {}

    public var count: Int { pending.count }

    public func contains(_ transaction: String) -> Bool { pending[transaction] != nil }

    /// Records a request before it is sent, so even an immediate reply finds it.
    public mutating func register(transaction: String, kind: JanusRequestKind, waiter: Waiter) {
        pending[transaction] = Entry(kind: kind, waiter: waiter)
    }

    /// Forgets a request (timeout, send failure) and returns its waiter.
    public mutating func remove(transaction: String) -> Waiter? {
        pending.removeValue(forKey: transaction)?.waiter
    }

    /// Forgets every request (connection closed) and returns their waiters.
    public mutating func removeAll() -> [Waiter] {
        defer { pending = [:] }
        return pending.values.map(\.waiter)
    }

    public mutating func classify(_ message: JanusMessage) -> Disposition {
        let isReplyKind = ["ack", "success", "error", "server_info"].contains(message.janus)
        guard let transaction = message.transaction, let entry = pending[transaction] else {
            return isReplyKind ? .stray(message) : .event(message)
        }
        switch message.janus {
        case "ack":
            guard entry.kind.ackIsFinal else { return .ack(transaction: transaction) }
            pending[transaction] = nil
            return .reply(entry.waiter, .success(message))
        case "success", "server_info":
            pending[transaction] = nil
            return .reply(entry.waiter, .success(message))
        case "error":
            pending[transaction] = nil
            return .reply(entry.waiter, .failure(message.error ?? .server(code: 0, reason: "unknown error")))
        case "event" where entry.kind.acceptsEventReply:
            pending[transaction] = nil
            return .reply(entry.waiter, .success(message))
        default:
            return .event(message)
        }
    }
}
