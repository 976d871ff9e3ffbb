import Testing

@testable import Agent
@testable import AgentCore

/// `--ice-server` URIs (RFC 7065 §3.1, RFC 7064 §3.1), what they become, and what is refused.
@Suite struct ICEServerTests {
    @Test(arguments: [
        // A full turn: URI, and its canonical form.
        ("turn:10.77.2.2:3478?transport=udp", ICEServer(scheme: .turn, host: "10.77.2.2", port: 3478, transport: .udp)),
        ("turn:10.77.2.2:3478?transport=tcp", ICEServer(scheme: .turn, host: "10.77.2.2", port: 3478, transport: .tcp)),
        // No port: 3478 (RFC 7065 §3.2); no transport: UDP.
        ("turn:192.0.2.1", ICEServer(scheme: .turn, host: "192.0.2.1", port: 3478, transport: .udp)),
        ("turn:192.0.2.1?transport=tcp", ICEServer(scheme: .turn, host: "192.0.2.1", port: 3478, transport: .tcp)),
        // Scheme and transport compare case-insensitively (RFC 3986 §3.1, RFC 5234 §2.3).
        ("TURN:10.0.0.1:5000?Transport=TCP", ICEServer(scheme: .turn, host: "10.0.0.1", port: 5000, transport: .tcp)),
        ("stun:203.0.113.9:19302", ICEServer(scheme: .stun, host: "203.0.113.9", port: 19302)),
        ("stun:203.0.113.9", ICEServer(scheme: .stun, host: "203.0.113.9", port: 3478)),
        ("turn:0.0.0.1:1", ICEServer(scheme: .turn, host: "0.0.0.1", port: 1)),
        ("turn:255.255.255.254:65535", ICEServer(scheme: .turn, host: "255.255.255.254", port: 65535)),
    ])
    func parses(_ text: String, _ expected: ICEServer) throws {
        let server = try ICEServer(parsing: text)
        #expect(server == expected)
        #expect(try ICEServer(parsing: server.description) == server, "\(server) reads back")
    }

    @Test func canonicalForm() throws {
        #expect(try ICEServer(parsing: "TURN:10.0.0.1?transport=TCP").description == "turn:10.0.0.1:3478?transport=tcp")
        #expect(try ICEServer(parsing: "stun:10.0.0.1").description == "stun:10.0.0.1:3478")
    }

    @Test(arguments: [
        ("", ICEServerError.empty),
        ("10.77.2.2:3478", .unknownScheme("10.77.2.2")),
        ("turn10.77.2.2", .missingScheme),
        ("http:10.77.2.2", .unknownScheme("http")),
        ("turns:10.77.2.2:5349", .secureTransportUnsupported(scheme: "turns")),
        ("stuns:10.77.2.2", .secureTransportUnsupported(scheme: "stuns")),
        ("turn://10.77.2.2:3478", .notOpaque),
        ("turn:", .missingHost),
        ("turn::3478", .missingHost),
        ("turn:turn.example.com:3478", .hostName("turn.example.com")),
        ("turn:localhost", .hostName("localhost")),
        ("turn:[2001:db8::1]:3478", .ipv6Unsupported),
        ("turn:2001:db8::1", .ipv6Unsupported),
        ("turn:10.77.2", .invalidAddress("10.77.2")),
        ("turn:10.77.2.256", .invalidAddress("10.77.2.256")),
        ("turn:010.77.2.2", .invalidAddress("010.77.2.2")),
        ("turn:10..2.2", .invalidAddress("10..2.2")),
        ("turn:0.0.0.0", .invalidAddress("0.0.0.0")),
        ("turn:10.77.2.2:0", .invalidPort("0")),
        ("turn:10.77.2.2:65536", .invalidPort("65536")),
        ("turn:10.77.2.2:034780", .invalidPort("034780")),
        ("turn:10.77.2.2:", .invalidPort("")),
        ("turn:10.77.2.2:+1", .invalidPort("+1")),
        ("turn:10.77.2.2?transport=sctp", .unknownTransport("sctp")),
        ("turn:10.77.2.2?transport=", .unknownTransport("")),
        ("turn:10.77.2.2?lifetime=600", .unsupportedQuery("lifetime=600")),
        ("stun:10.77.2.2?transport=udp", .queryNotAllowed),
    ])
    func refuses(_ text: String, _ expected: ICEServerError) {
        #expect(throws: expected) { try ICEServer(parsing: text) }
    }

    @Test("a URI with userinfo is refused without any piece of it in the error")
    func userinfo() {
        for text in ["turn:agentd:s3cret-pass@10.77.2.2:3478", "turn:s3cret-pass@10.77.2.2", "s3cret-pass@turn:10.77.2.2"] {
            #expect(throws: ICEServerError.userinfo) { try ICEServer(parsing: text) }
            #expect(!"\(ICEServerError.userinfo)".contains("s3cret"))
        }
    }

    @Test("longer than 256 bytes is refused before it is read; what errors show is bounded and printable")
    func bounds() {
        let long = "turn:" + String(repeating: "1", count: 300)
        #expect(throws: ICEServerError.tooLong(bytes: 305, limit: 256)) { try ICEServer(parsing: long) }
        let name = "turn:" + String(repeating: "a", count: 100) + "\u{7}\u{e9}"
        do {
            _ = try ICEServer(parsing: name)
            Issue.record("a name was taken")
        } catch {
            guard case .hostName(let shown) = error else { Issue.record("\(error)"); return }
            #expect(shown == String(repeating: "a", count: 64) + "…", "\(shown)")
        }
        #expect(ICEServerError.shown("a\u{1}\u{e9}b") == "a??b")
    }

    @Test("a list: comma-separated, blank items skipped, each item parsed")
    func list() throws {
        let servers = try ICEServer.list(parsing: " turn:10.77.2.2:3478?transport=udp, ,stun:10.77.2.2 ,turn:10.77.2.2?transport=tcp")
        #expect(servers.map(\.description) == [
            "turn:10.77.2.2:3478?transport=udp", "stun:10.77.2.2:3478", "turn:10.77.2.2:3478?transport=tcp",
        ])
        #expect(try ICEServer.list(parsing: "") == [])
        #expect(throws: ICEServerError.hostName("turn.example.com")) { try ICEServer.list(parsing: "turn:10.0.0.1,turn:turn.example.com") }
        #expect(throws: ICEServerError.tooLong(bytes: 4097, limit: 4096)) { try ICEServer.list(parsing: String(repeating: ",", count: 4097)) }
    }
}

/// What an ICE configuration must hold together before anything is sent.
@Suite struct ICEConfigurationTests {
    static let turn = ICEServer(scheme: .turn, host: "10.77.2.2")
    static let stun = ICEServer(scheme: .stun, host: "10.77.2.2")
    static let credentials = ICEServerCredentials(username: "turn-user", credential: "s3cret-pass")

    @Test func checks() throws {
        try ICEConfiguration(addresses: ["10.77.2.1"]).check(credentials: nil)
        try ICEConfiguration(servers: [Self.stun]).check(credentials: nil)
        try ICEConfiguration(servers: [Self.turn], policy: .relay).check(credentials: Self.credentials)
        #expect(throws: ICEConfigurationError.relayWithoutTURNServer) {
            try ICEConfiguration(servers: [Self.stun], policy: .relay).check(credentials: Self.credentials)
        }
        #expect(throws: ICEConfigurationError.missingCredentials) { try ICEConfiguration(servers: [Self.turn]).check(credentials: nil) }
        #expect(throws: ICEConfigurationError.moreThanOneSTUNServer) {
            try ICEConfiguration(servers: [Self.stun, Self.stun]).check(credentials: nil)
        }
        #expect(throws: ICEConfigurationError.tooManyServers(9, limit: 8)) {
            try ICEConfiguration(servers: Array(repeating: Self.turn, count: 9)).check(credentials: Self.credentials)
        }
        let empty = ICEServerCredentials(username: "agentd", credential: "")
        #expect(throws: ICEConfigurationError.unusableCredentials("the credential is empty")) {
            try ICEConfiguration(servers: [Self.turn]).check(credentials: empty)
        }
        let nul = ICEServerCredentials(username: "a\u{0}b", credential: "x")
        #expect(throws: ICEConfigurationError.unusableCredentials("the username contains a NUL byte")) {
            try ICEConfiguration(servers: [Self.turn]).check(credentials: nul)
        }
        let long = ICEServerCredentials(username: "agentd", credential: String(repeating: "x", count: 513))
        #expect(throws: ICEConfigurationError.unusableCredentials("the credential is longer than 512 bytes")) {
            try ICEConfiguration(servers: [Self.turn]).check(credentials: long)
        }
    }

    @Test("TURN credentials are redacted in every textual form, alone and inside RoomCredentials")
    func redacted() {
        let credentials = RoomCredentials(token: "t0ken-value", iceServer: Self.credentials)
        #expect("\(Self.credentials)" == "ICEServerCredentials(username: <redacted 9 bytes>, credential: <redacted 11 bytes>)")
        #expect(
            "\(credentials)"
                == "RoomCredentials(token: <redacted 11 bytes>, pin: none, iceServer: ICEServerCredentials(username: <redacted 9 bytes>, credential: <redacted 11 bytes>))")
        let join = RoomJoin(endpoint: .janus(server: "ws://10.77.0.2:8188/", room: "r1"), iceAddresses: ["10.77.2.1"])
        var dumped = ""
        dump((join, credentials), to: &dumped)
        let walked = RoomCredentialsTests.mirrorText((join, credentials))
        for text in ["\(credentials)", String(reflecting: credentials), dumped] + walked {
            #expect(!text.contains("s3cret-pass") && !text.contains("turn-user"), "\(text)")
        }
        #expect(walked.contains("<redacted 11 bytes>") && walked.contains("10.77.2.1"), "\(walked)")
    }

    @Test("a patch of the ICE settings replaces the join's and adds the credentials, keeping the rest")
    func patch() {
        let ice = ICEConfiguration(addresses: ["10.77.2.1"], servers: [Self.turn], policy: .relay)
        let patch = RoomJoinPatch.ice(ice, credentials: Self.credentials)
        let join = RoomJoin(endpoint: .janus(server: "ws://10.77.0.2:8188/", room: "r1"), display: "x", iceAddresses: ["10.77.0.1"])
        let patched = patch.applied(to: join)
        #expect(patched.ice == ice && patched.iceAddresses == ["10.77.2.1"] && patched.display == "x" && patched.room == "r1")
        let credentials = patch.applied(to: RoomCredentials(token: "t", pin: "p"))
        #expect(credentials == RoomCredentials(token: "t", pin: "p", iceServer: Self.credentials))
        // An empty patch changes nothing, the TURN credentials included.
        #expect(RoomJoinPatch().applied(to: patched) == patched)
        #expect(RoomJoinPatch().applied(to: credentials) == credentials)
    }
}
