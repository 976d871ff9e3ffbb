/// Why bytes off the wire are not valid RTCP. Counted as drops, never trapped on.
public enum RTCPError: Error, Equatable, Sendable {
    case truncated(needed: Int, got: Int)
    case badVersion(UInt8)
    case lengthPastEnd(declared: Int, available: Int)
    case badPadding(Int)
    case malformed(packetType: UInt8, reason: String)
}
