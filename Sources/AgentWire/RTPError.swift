/// Why bytes off the wire are not a valid RTP packet. Counted as drops, never trapped on.
public enum RTPError: Error, Equatable, Sendable {
    case truncated(needed: Int, got: Int)
    case badVersion(UInt8)
    case paddingPastEnd(padding: Int, available: Int)
    case extensionPastEnd(needed: Int, got: Int)
    case badExtensionElement(offset: Int)
    case bufferTooSmall(needed: Int, capacity: Int)
}
