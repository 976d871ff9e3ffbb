/// A snapshot of one ``SendStream``'s counters, for the manifest and logs.
public struct SendStreamStatistics: Equatable, Sendable {
    /// Original RTP packets sent (retransmissions not included), as in the SR's packet count.
    public var packets = 0
    /// Payload bytes of those packets, as in the SR's octet count (RFC 3550 §6.4.1: headers and
    /// padding excluded).
    public var payloadBytes = 0
    /// Whole RTP packet bytes, headers included, retransmissions not included.
    public var bytes = 0
    public var frames = 0
    public var keyframes = 0
    /// Packets sent again in answer to NACKs, and their bytes.
    public var retransmissions = 0
    public var retransmittedBytes = 0
    /// Generic NACK packets for this SSRC, and the sequence numbers they asked for.
    public var nacksReceived = 0
    public var nackedPackets = 0
    /// Asked-for packets no longer (or never) in the send history: nothing was resent for them.
    public var nackMisses = 0
    public var plisReceived = 0
    public var firsReceived = 0
    /// FIRs that repeated the previous command's sequence number (RFC 5104 §4.3.1.2: a
    /// retransmission of a request already acted on).
    public var firRepeats = 0
    /// Keyframe requests passed on to the encoder, and those held back by the minimum interval.
    public var keyframeRequests = 0
    public var keyframeRequestsSuppressed = 0
    public var senderReports = 0
    /// Frames whose capture time disagreed with the RTP clock anchor by more than the
    /// re-anchor threshold (a loop, a seek, a stalled source), so the anchor moved.
    public var reanchors = 0
    /// From the receiver's latest report block about us (RFC 3550 §6.4.1): the fraction lost
    /// since its previous report (0...1), its cumulative loss and interarrival jitter (in RTP
    /// clock ticks), and the round-trip time computed from LSR/DLSR (nil until a report names
    /// one of our SRs).
    public var receptionReports = 0
    public var reportedFractionLost = 0.0
    public var reportedCumulativeLost = 0
    public var reportedJitter = 0
    public var roundTripTime: Duration?

    public init() {}
}
