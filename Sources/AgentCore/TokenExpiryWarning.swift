import Foundation

/// When to warn that a token runs out (``ChannelEvent/tokenWillExpire(expiresAt:)``), whatever
/// platform's token it is: the platform says when it expires (``RoomSession/tokenExpiry(of:)``),
/// the channel warns ``RoomTimeouts/tokenExpiryLead`` before.
package enum TokenExpiryWarning {
    /// How long from `now` until `lead` before `expiry`: zero when less than `lead` is left (or
    /// the token has expired). An expiry centuries ahead (it came from outside) gets the longest
    /// delay a ``Duration`` of Int64 nanoseconds holds, not a trap.
    package static func delay(until expiry: Date, lead: Duration, now: Date) -> Duration {
        let seconds = expiry.timeIntervalSince(now) - Double(lead.totalNanoseconds) / 1_000_000_000
        guard seconds > 0 else { return .zero }
        return .seconds(saturating: seconds)
    }
}
