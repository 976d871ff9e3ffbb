/// How an ``EventBuffer`` may treat a pending event while its consumer is behind.
public enum EventBufferClass: Sendable, Hashable {
    /// Never merged or dropped: roster, connection state, lifecycle. Bounded only by the buffer's
    /// ceiling, which a real room never reaches (see ``EventBuffer/defaultCeiling``).
    case kept
    /// A snapshot that a newer one of the same `kind` makes stale (statistics, "a keyframe was
    /// asked for"): at most one is pending per kind. A newer one discards the pending one (counted
    /// as coalesced) and takes its own place in the order, so it still follows what came before it.
    case newest(kind: Int)
    /// Kept in order up to the buffer's ``EventBuffer/limitedCapacity`` pending ones, then dropped
    /// and counted. For events whose rate and size the remote side chooses (data messages).
    case limited
}
