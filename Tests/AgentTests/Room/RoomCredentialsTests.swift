import Testing

@testable import Agent
@testable import AgentCore

/// No textual form of credentials, or of a join printed beside them, shows a secret.
@Suite struct RoomCredentialsTests {
    static let token = "s3cret-core-token"
    static let pin = "pin-4321"
    static let credentials = RoomCredentials(token: token, pin: pin)
    static let join = RoomJoin(
        endpoint: .janus(server: "ws://10.77.0.2:8188/", room: "r1"), display: "bot", role: .host, create: true,
        iceAddresses: ["10.77.0.1"])

    /// Every label and every leaf of a Mirror walk, as text, down to `depth` levels.
    static func mirrorText(_ value: Any, depth: Int = 8) -> [String] {
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty, depth > 0 else { return ["\(value)"] }
        return mirror.children.flatMap { child in [child.label ?? ""] + mirrorText(child.value, depth: depth - 1) }
    }

    static func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    static func containsSecret(_ text: String) -> Bool {
        text.contains(token) || text.contains(pin)
    }

    @Test("description and debugDescription show the lengths only")
    func descriptions() {
        let shown = "RoomCredentials(token: <redacted 17 bytes>, pin: <redacted 8 bytes>)"
        #expect("\(Self.credentials)" == shown)
        #expect(String(reflecting: Self.credentials) == shown)
        #expect("\(RoomCredentials.none)" == "RoomCredentials(token: none, pin: none)")
        #expect("\(RoomCredentials(pin: "1"))" == "RoomCredentials(token: none, pin: <redacted 1 bytes>)")
    }

    @Test("dump and a Mirror walk show the redacted children, not the secrets")
    func mirror() {
        let dump = Self.dumped(Self.credentials)
        #expect(!Self.containsSecret(dump), "\(dump)")
        #expect(dump.contains("token: \"<redacted 17 bytes>\""), "\(dump)")
        let walked = Self.mirrorText(Self.credentials)
        #expect(walked == ["token", "<redacted 17 bytes>", "pin", "<redacted 8 bytes>"])
    }

    @Test("a join and its credentials printed, dumped or walked together show no secret")
    func pair() {
        let pair = (Self.join, Self.credentials)
        for text in ["\(pair)", String(reflecting: pair), Self.dumped(pair)] + Self.mirrorText(pair) {
            #expect(!Self.containsSecret(text), "\(text)")
        }
        // The walk did reach both: the join's fields and the redacted token are in it.
        let walked = Self.mirrorText(pair)
        #expect(walked.contains("10.77.0.1") && walked.contains("<redacted 17 bytes>"), "\(walked)")
    }

    @Test("credentials are not Codable, so no encoder takes them")
    func notCodable() {
        #expect(!(Self.credentials as Any is any Encodable))
        #expect(!(RoomCredentials.self as Any.Type is any Decodable.Type))
    }
}
