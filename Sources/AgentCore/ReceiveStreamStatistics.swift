/// A snapshot of one ``ReceiveStream``'s counters, for the manifest and logs.
public struct ReceiveStreamStatistics: Equatable, Sendable {
    /// Packets that passed validation (duplicates and late ones included).
    public var packets = 0
    /// Payload bytes of those packets.
    public var bytes = 0
    /// Sequence numbers never received in time for their frame.
    public var lost = 0
    /// Packets that arrived after a NACK asked for them.
    public var recovered = 0
    public var duplicates = 0
    public var late = 0
    /// Packets that were not RTP, not this SSRC, or whose payload the codec refused.
    public var malformed = 0
    /// Packets dropped for an absurd sequence jump (A.1 probation).
    public var sequenceJumps = 0
    /// Times the sender restarted its sequence numbers.
    public var restarts = 0
    /// NACK packets sent, and sequence numbers they asked for.
    public var nacks = 0
    public var nackedPackets = 0
    public var plis = 0
    public var firs = 0
    public var frames = 0
    public var keyframes = 0
    /// Frames given up (holes that were never filled).
    public var frameLosses = 0
    /// RFC 3550 figures: cumulative loss (expected − received) and interarrival jitter.
    public var cumulativeLost = 0
    public var jitterRTPUnits: Double = 0
    public var jitterSeconds: Double = 0
    public var firstPacketAt: MediaInstant?
    public var firstFrameAt: MediaInstant?
    public var firstKeyframeAt: MediaInstant?

    public init() {}
}
