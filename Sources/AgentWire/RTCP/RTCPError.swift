import AgentCore

/// Why bytes off the wire are not valid RTCP. Counted as drops, never trapped on.
public enum RTCPError: Error, Equatable, Sendable {
    case truncated(needed: Int, got: Int)
    case badVersion(UInt8)
    case lengthPastEnd(declared: Int, available: Int)
    case badPadding(Int)
    case malformed(packetType: UInt8, reason: String)

    /// A read past the end of one packet, the reader spanning that packet alone: the length the
    /// packet would need, and the length it has.
    init(_ error: ByteRangeError) {
        self = .truncated(needed: error.needed, got: error.count)
    }
}
