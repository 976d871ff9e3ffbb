import Foundation
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus

/// When ``ChannelEvent/tokenWillExpire(expiresAt:)`` is due, and how refusals read.
@Suite struct JanusTokenExpiryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func warningIsLeadBeforeExpiryOrAtOnce() {
        let token = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: now.addingTimeInterval(40))
        #expect(JanusToken(token.value).warningDelay(lead: .seconds(30), now: now) == .seconds(10))
        #expect(JanusToken(token.value).warningDelay(lead: .seconds(60), now: now) == .zero)
        let expired = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: now.addingTimeInterval(-5))
        #expect(JanusToken(expired.value).warningDelay(lead: .seconds(30), now: now) == .zero)
        #expect(JanusToken("opaque").warningDelay(lead: .seconds(30), now: now) == nil)
    }

    /// A token from outside whose expiry is centuries ahead: the delay saturates (it used to
    /// trap in `Int64(seconds * 1e9)` after the join and take the daemon down with it).
    @Test func farFutureExpiryDoesNotTrap() {
        let token = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: now.addingTimeInterval(1e10))
        #expect(JanusToken(token.value).warningDelay(lead: .seconds(30), now: now)?.totalNanoseconds == Int64.max)
        let farthest = JanusToken("9223372036854775807,janus,janus.plugin.videoroom:c2ln")
        #expect(farthest.expiry != nil)
        #expect(farthest.warningDelay(lead: .seconds(30), now: now)?.totalNanoseconds == Int64.max)
    }

    /// `mint` clamps an expiry outside 1970 ... 9999 instead of trapping in `Int(seconds)`.
    @Test func mintClampsAnExpiryOutOfRange() {
        let far = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: Date(timeIntervalSince1970: 9.3e18))
        #expect(far.expiry == JanusToken.latestExpiry)
        #expect(far.value.hasPrefix("253402300799,janus,"))
        let before = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: Date(timeIntervalSince1970: -5))
        #expect(before.value.hasPrefix("0,janus,"))
    }

    @Test func refusedTokenIsExpiredOnlyWhenItsExpiryPassed() {
        let refusal = JanusError.server(code: 403, reason: "Unauthorized request (wrong or missing secret/token)")
        let old = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: now.addingTimeInterval(-1)).value
        let fresh = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: now.addingTimeInterval(60)).value
        #expect(AgentError.fromJanus(refusal, server: "ws://x/", room: "r", token: old, now: now)
            == .tokenExpired(expiredAt: Date(timeIntervalSince1970: 1_799_999_999)))
        #expect(AgentError.fromJanus(refusal, server: "ws://x/", room: "r", token: fresh, now: now).code == "token_refused")
        #expect(AgentError.fromJanus(JanusError.plugin(code: 426, reason: "No such room"), server: "ws://x/", room: "r", token: nil)
            == .roomNotFound(room: "r"))
        #expect(AgentError.fromJanus(JanusError.connectFailed(reason: "refused"), server: "ws://x/", room: "r", token: nil).code == "unreachable")
        #expect(AgentError.roomRefused("pin").isRefusal && !AgentError.mediaFailed("ice").isRefusal)
    }
}
