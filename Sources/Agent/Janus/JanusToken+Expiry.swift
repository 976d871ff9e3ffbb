import Foundation

/// When to warn that a token runs out (``ChannelEvent/tokenWillExpire(expiresAt:)``).
extension JanusToken {
    /// How long from `now` until `lead` before the expiry: zero when less than `lead` is left
    /// (or the token has expired), nil for a token that does not say when it expires. A token
    /// whose expiry lies centuries ahead (it came from outside) gets the longest delay a
    /// ``Duration`` of Int64 nanoseconds holds, not a trap.
    public func warningDelay(lead: Duration, now: Date) -> Duration? {
        guard let expiry else { return nil }
        let seconds = expiry.timeIntervalSince(now) - Double(lead.totalNanoseconds) / 1_000_000_000
        guard seconds > 0 else { return .zero }
        return .seconds(saturating: seconds)
    }
}
