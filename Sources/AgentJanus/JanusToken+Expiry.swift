import AgentCore
import Foundation

/// When to warn that a token runs out (``ChannelEvent/tokenWillExpire(expiresAt:)``).
extension JanusToken {
    /// How long from `now` until `lead` before the expiry (``TokenExpiryWarning``), nil for a
    /// token that does not say when it expires.
    public func warningDelay(lead: Duration, now: Date) -> Duration? {
        expiry.map { TokenExpiryWarning.delay(until: $0, lead: lead, now: now) }
    }
}
