import AgentCore

/// One complete codec frame assembled by the ``JitterBuffer`` from consecutive RTP packets.
public struct MediaFrame: Equatable, Sendable {
    /// The codec bytes: the payload ranges of its packets, concatenated in sequence order.
    public var bytes: [UInt8]
    /// The frame's RTP timestamp unwrapped to 64 bits; map it with ``SenderClockMapping``.
    public var rtpTimestamp: Int64
    public var isKeyframe: Bool
    /// Unwrapped sequence numbers of the frame's first and last packet.
    public var firstSequence: Int64
    public var lastSequence: Int64
    /// When the packet that completed the frame arrived.
    public var completedAt: MediaInstant

    public init(
        bytes: [UInt8], rtpTimestamp: Int64, isKeyframe: Bool, firstSequence: Int64, lastSequence: Int64,
        completedAt: MediaInstant
    ) {
        self.bytes = bytes
        self.rtpTimestamp = rtpTimestamp
        self.isKeyframe = isKeyframe
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.completedAt = completedAt
    }
}
