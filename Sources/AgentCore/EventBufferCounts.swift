/// What an ``EventBuffer`` did because its consumer was behind (since it was made).
public struct EventBufferCounts: Sendable, Equatable {
    /// Pending snapshots that a newer one of the same kind replaced (statistics and the like).
    public var coalesced: Int
    /// Events discarded: data messages past the pending limit, any event past the ceiling. Each
    /// run of them is announced in the stream by an `eventsLost` event.
    public var dropped: Int

    public init(coalesced: Int = 0, dropped: Int = 0) {
        self.coalesced = coalesced
        self.dropped = dropped
    }

    public static func + (lhs: EventBufferCounts, rhs: EventBufferCounts) -> EventBufferCounts {
        EventBufferCounts(coalesced: lhs.coalesced + rhs.coalesced, dropped: lhs.dropped + rhs.dropped)
    }

    public var isZero: Bool { coalesced == 0 && dropped == 0 }
}
