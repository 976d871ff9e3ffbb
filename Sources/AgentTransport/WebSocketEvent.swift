/// What a ``WebSocketClient`` delivers on its ``WebSocketClient/events`` stream.
public enum WebSocketEvent: Equatable, Sendable {
    /// A complete text message (RFC 6455 §5.6, opcode 0x1), already UTF-8 validated by libsoup.
    case text(String)
    /// A complete binary message (opcode 0x2).
    case binary([UInt8])
    /// The connection is closed. Always the last event; the stream finishes right after it.
    /// `code` is 1006 when the peer vanished without a close frame (RFC 6455 §7.1.5).
    case closed(code: UInt16, reason: String)
}
