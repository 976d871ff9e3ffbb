import AgentCore
import AgentWire

/// When to ask a video sender for a keyframe, and how hard.
///
/// A recording of video can only start at a keyframe, and after a loss the decoder needs a new
/// one. The policy: ask on subscribe (no keyframe yet) and after an unrecoverable loss; first
/// with PLI (RFC 4585 §6.3.1), and if no keyframe comes within `escalateAfter`, with FIR
/// (RFC 5104 §4.3.1) and PLI in turn: a sender or middlebox may heed only one of the two (a
/// Chromium H.264 publisher behind Janus answered PLIs but let 18 FIRs in 9 s go unanswered, so
/// a recording under loss whose first keyframe broke never started). Each FIR carries the next
/// command sequence number: the previous request went unanswered, so this is a new command, not
/// a retransmission the sender may ignore.
/// Requests are never closer than `minimumInterval` (a flood of keyframe requests makes the
/// sender's bitrate collapse), and stop as soon as a keyframe arrives.
public struct KeyframeRequester: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var minimumInterval: Duration
        public var escalateAfter: Duration

        public init(minimumInterval: Duration = .milliseconds(500), escalateAfter: Duration = .seconds(1)) {
            self.minimumInterval = minimumInterval
            self.escalateAfter = escalateAfter
        }
    }

    public struct Counters: Equatable, Sendable {
        public var plis = 0
        public var firs = 0
        public var keyframes = 0
    }

    public let configuration: Configuration
    public let senderSSRC: UInt32
    public let mediaSSRC: UInt32
    public private(set) var counters = Counters()
    /// The command sequence number the next FIR carries.
    public private(set) var nextFIRSequence: UInt8 = 0
    /// When the current unanswered request episode began; nil when no keyframe is wanted.
    public private(set) var wantedSince: MediaInstant?
    private var lastRequestAt: MediaInstant?
    /// Requests sent in the current episode past `escalateAfter`.
    private var escalatedRequests = 0
    private var hasKeyframe = false

    public init(senderSSRC: UInt32, mediaSSRC: UInt32, configuration: Configuration = Configuration()) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.configuration = configuration
    }

    /// True while a keyframe is wanted and none has arrived.
    public var isWaiting: Bool { wantedSince != nil }

    /// A packet arrived; before the first keyframe this starts the subscribe request.
    public mutating func packetReceived(at now: MediaInstant) {
        if !hasKeyframe, wantedSince == nil { beginEpisode(at: now) }
    }

    /// The decoder cannot go on without a keyframe (a frame was given up).
    public mutating func frameLost(at now: MediaInstant) {
        if wantedSince == nil { beginEpisode(at: now) }
    }

    private mutating func beginEpisode(at now: MediaInstant) {
        wantedSince = now
        escalatedRequests = 0
    }

    /// A keyframe was assembled: stop asking.
    public mutating func keyframeReceived(at now: MediaInstant) {
        hasKeyframe = true
        counters.keyframes += 1
        wantedSince = nil
    }

    /// The request to send at `now`, if one is wanted and the rate limit allows it.
    public mutating func tick(now: MediaInstant) -> RTCPPacket? {
        guard let since = wantedSince else { return nil }
        if let last = lastRequestAt, now - last < configuration.minimumInterval { return nil }
        lastRequestAt = now
        let escalated = now - since >= configuration.escalateAfter
        if escalated { escalatedRequests += 1 }
        // Escalated, FIR and PLI take turns, FIR first.
        if !escalated || escalatedRequests.isMultiple(of: 2) {
            counters.plis += 1
            return .pictureLoss(PictureLossIndication(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC))
        }
        counters.firs += 1
        let sequence = nextFIRSequence
        nextFIRSequence &+= 1
        return .fullIntraRequest(
            FullIntraRequest(senderSSRC: senderSSRC, entries: [.init(ssrc: mediaSSRC, sequenceNumber: sequence)]))
    }
}
