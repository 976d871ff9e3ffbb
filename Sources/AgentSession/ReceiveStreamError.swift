import AgentWire

/// Why ``ReceiveStream`` dropped a packet. Every case is also counted in its statistics.
public enum ReceiveStreamError: Error, Equatable, Sendable {
    /// Not an RTP packet (too short, version not 2, bad padding or extension).
    case malformed(RTPError)
    /// From another SSRC than the stream's.
    case unexpectedSSRC(UInt32)
    /// A sequence number too far from the stream's (RFC 3550 A.1 MAX_DROPOUT/MAX_MISORDER),
    /// held on probation: the next packet in sequence after it restarts the stream.
    case sequenceJump(distance: Int64)
    /// The codec payload could not be read.
    case malformedPayload(DepacketizerError)
}
