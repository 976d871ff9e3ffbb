import Testing

@testable import AgentdCore

/// Credentials in a server URL never reach what we show (job JSON, logs, manifest, CLI lines).
@Suite struct JanusURLTests {
    @Test(arguments: [
        ("ws://user:pass@10.77.0.2:8188/", "ws://***@10.77.0.2:8188/", "user:pass"),
        ("wss://token@janus.example/ws?x=1", "wss://***@janus.example/ws?x=1", "token"),
        ("ws://a:b@c@host/", "ws://***@host/", "a:b@c"),
        ("ws://host:8188/path@notuserinfo", "ws://host:8188/path@notuserinfo", nil),
        ("ws://10.77.0.2:8188/", "ws://10.77.0.2:8188/", nil),
        ("not a url", "not a url", nil),
    ] as [(String, String, String?)])
    func userinfoIsMasked(url: String, shown: String, credentials: String?) {
        #expect(JanusURL.redacted(url) == shown)
        #expect(JanusURL.credentials(url) == credentials)
    }
}
