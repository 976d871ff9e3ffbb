/// Why a ``WebSocketClient`` operation failed.
///
/// Close codes are the RFC 6455 §7.4.1 status codes (1000 normal, 1001 going away, 1006 abnormal:
/// the connection dropped without a close frame).
public enum WebSocketError: Error, Equatable, Sendable {
    /// The URL could not be parsed or is not ws:// or wss://.
    case invalidURL(String)
    /// The TCP connection, TLS or the HTTP upgrade handshake failed, or it timed out.
    case connectFailed(reason: String)
    /// The socket is closed; `code` and `reason` are what the close handshake carried.
    case closed(code: UInt16, reason: String)
    /// `send` before `connect` finished.
    case notConnected
    /// `connect` was called on a client that was already used; a client connects once.
    case alreadyUsed
}
