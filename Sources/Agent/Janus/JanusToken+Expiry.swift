import Foundation

/// When to warn that a token runs out (``ChannelEvent/tokenWillExpire(expiresAt:)``).
extension JanusToken {
    /// How long from `now` until `lead` before the expiry: zero when less than `lead` is left
    /// (or the token has expired), nil for a token that does not say when it expires. The expiry
    /// is whatever integer the token carries, so a delay beyond Int64 nanoseconds (about 292
    /// years) is cut to that instead of trapping.
    public func warningDelay(lead: Duration, now: Date) -> Duration? {
        guard let expiry else { return nil }
        let seconds = expiry.timeIntervalSince(now) - Double(lead.totalNanoseconds) / 1_000_000_000
        guard seconds > 0 else { return .zero }
        let nanoseconds = seconds * 1_000_000_000
        // 2^63 is exactly representable; every Double below it converts.
        guard nanoseconds < 0x1p63 else { return .nanoseconds(Int64.max) }
        return .nanoseconds(Int64(nanoseconds))
    }
}
