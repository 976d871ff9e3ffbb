import Foundation
import Testing

@testable import Agent

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

    @Test func opaqueTokenHasNoExpiry() {
        #expect(JanusToken("abc").expiry == nil)
        #expect(JanusToken("x,y:z").expiry == nil)
    }
}
