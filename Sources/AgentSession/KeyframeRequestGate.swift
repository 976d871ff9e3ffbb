import AgentCore

/// Decides which received keyframe requests reach the encoder.
///
/// Every subscriber behind an SFU may ask, and each asks again while it waits, so requests come
/// in bursts; a keyframe costs several times a delta frame, and one per request would flood the
/// link. So requests closer than `minimumInterval` to the last one passed on are dropped (one
/// keyframe answers them all). A FIR (RFC 5104 §4.3.1.2) carries a command sequence number: a
/// FIR repeating the last number seen is a retransmission of a command already acted on and is
/// ignored; a new number is a new command. PLI (RFC 4585 §6.3.1) has no number.
public struct KeyframeRequestGate: Sendable {
    public enum Decision: Equatable, Sendable {
        case request
        /// Within the minimum interval of the previous request.
        case suppressed
        /// A FIR with the sequence number already acted on.
        case repeated
    }

    public let minimumInterval: Duration
    private var lastRequestAt: MediaInstant?
    /// The last FIR command sequence number seen, per requesting SSRC.
    private var lastFIRSequence: [UInt32: UInt8] = [:]

    public init(minimumInterval: Duration = .milliseconds(300)) {
        self.minimumInterval = minimumInterval
    }

    public mutating func pictureLoss(at now: MediaInstant) -> Decision {
        rateLimited(now)
    }

    public mutating func fullIntraRequest(from requester: UInt32, sequenceNumber: UInt8, at now: MediaInstant) -> Decision {
        if lastFIRSequence[requester] == sequenceNumber { return .repeated }
        // Bounded: one entry per requester, and an SFU is one requester per stream.
        if lastFIRSequence.count >= 64, lastFIRSequence[requester] == nil { lastFIRSequence.removeAll() }
        lastFIRSequence[requester] = sequenceNumber
        return rateLimited(now)
    }

    private mutating func rateLimited(_ now: MediaInstant) -> Decision {
        if let last = lastRequestAt, now - last < minimumInterval { return .suppressed }
        lastRequestAt = now
        return .request
    }
}
