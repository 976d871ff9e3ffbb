import Foundation
import Testing

@testable import Agent
@testable import AgentJanus

@Suite struct JanusTokenTests {
    /// RFC 2202 §3, test case 2: HMAC-SHA1 with key "Jefe".
    @Test func hmacSHA1MatchesRFC2202() {
        let digest = JanusToken.hmacSHA1(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        let hex = digest.map { String(format: "%02x", $0) }.joined()
        #expect(hex == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
    }

    @Test func mintedTokenHasJanusLayoutAndParsesBack() throws {
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        let token = JanusToken.mint(secret: "janus", plugins: ["janus.plugin.videoroom"], expiry: expiry)
        let payload = "2000000000,janus,janus.plugin.videoroom"
        #expect(token.value.hasPrefix(payload + ":"))
        let signature = try #require(Data(base64Encoded: String(token.value.dropFirst(payload.count + 1))))
        #expect(Array(signature) == JanusToken.hmacSHA1(key: Array("janus".utf8), message: Array(payload.utf8)))
        let parsed = JanusToken(token.value)
        #expect(parsed.expiry == expiry)
        #expect(parsed.plugins == ["janus.plugin.videoroom"])
        #expect(!token.description.contains(token.value))
    }

    /// Fuzz fixture (janus-token target): the expiry is any integer a token carries, and one far
    /// away made the warning delay trap converting seconds × 10⁹ to Int64.
    @Test(arguments: [
        ("9223372036854775807,janus,janus.plugin.videoroom:x", "253402300799,janus,p:"),
        ("99999999999,janus,p:x", "99999999999,janus,p:"),
        ("-9223372036854775808,janus,p:x", "0,janus,p:"),
    ])
    func farOrPastExpiriesGiveADelayWithoutTrapping(value: String, mintedPrefix: String) throws {
        let token = JanusToken(value)
        let expiry = try #require(token.expiry)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for lead in [Duration.zero, .seconds(30), .seconds(Int64.max)] {
            let delay = try #require(token.warningDelay(lead: lead, now: now))
            let expected = expiry.timeIntervalSince(now) - Double(lead.totalNanoseconds) / 1e9
            if expected <= 0 {
                #expect(delay == .zero)
            } else if expected * 1e9 >= 0x1p63 {
                #expect(delay == .nanoseconds(Int64.max))
            } else {
                #expect(abs(Double(delay.totalNanoseconds) / 1e9 - expected) < 1e-3 * max(1, expected))
            }
        }
        // Minting such a date does not trap either; the expiry is held to 1970 ... 9999-12-31 (latestExpiry).
        let minted = JanusToken.mint(secret: "s", plugins: ["p"], expiry: expiry)
        #expect(minted.value.hasPrefix(mintedPrefix))
    }

    @Test func opaqueTokenHasNoExpiry() {
        #expect(JanusToken("abc").expiry == nil)
        #expect(JanusToken("x,y:z").expiry == nil)
    }
}
