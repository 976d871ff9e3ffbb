/// Places incoming audio packets on one continuous RTP timeline, so that an audio sink delivers
/// exactly as much audio as RTP time passed.
///
/// A plain state machine in 48 kHz ticks: ``place(timestamp:duration:)`` takes a packet's RTP
/// time and length and says what to do with it. It keeps only the end of what was placed:
///
///     placed:  |pkt|pkt|pkt|            next ^
///     ahead:                  gap  |pkt|         → fill the gap, then decode        (.next(gap:trim:))
///     overlap:             |pkt|                 → decode, drop the part already placed (trim)
///     behind:      |pkt|                         → drop: a duplicate or a packet too late
///     far:   beyond `fillLimit` either way       → restart the timeline at the packet
///
/// A packet far *behind* restarts only after `restartAfterStalePackets` of them in a row: one
/// stray old packet is dropped, a sender that really went back is followed.
struct RemoteAudioTimeline: Sendable {
    enum Placement: Equatable, Sendable {
        /// The first packet: the timeline begins at it.
        case start
        /// Contiguous with what was placed after `gap` ticks to fill; skip the first `trim` ticks
        /// of the packet, which overlap what was placed.
        case next(gap: Int64, trim: Int64)
        /// Too far from what was placed to fill: begin a new timeline at this packet.
        case restart
        /// Wholly behind what was placed (duplicate, reordered too late): drop it.
        case late
    }

    /// Gaps up to this many ticks are filled; larger jumps restart the timeline.
    let fillLimit: Int64
    let restartAfterStalePackets: Int
    /// Where the next packet is expected: the end of everything placed. nil before the first.
    private(set) var next: Int64?
    private var stalePackets = 0

    init(fillLimit: Int64, restartAfterStalePackets: Int = 3) {
        self.fillLimit = max(0, fillLimit)
        self.restartAfterStalePackets = max(1, restartAfterStalePackets)
    }

    mutating func place(timestamp: Int64, duration: Int64) -> Placement {
        let end = timestamp + duration
        guard let expected = next else {
            next = end
            return .start
        }
        if timestamp >= expected {
            stalePackets = 0
            next = end
            return timestamp - expected > fillLimit ? .restart : .next(gap: timestamp - expected, trim: 0)
        }
        if end > expected {
            stalePackets = 0
            next = end
            return .next(gap: 0, trim: expected - timestamp)
        }
        guard expected - timestamp > fillLimit else {
            stalePackets = 0
            return .late
        }
        stalePackets += 1
        guard stalePackets >= restartAfterStalePackets else { return .late }
        stalePackets = 0
        next = end
        return .restart
    }

    /// Forgets the timeline: the next packet starts a new one.
    mutating func reset() {
        next = nil
        stalePackets = 0
    }
}
