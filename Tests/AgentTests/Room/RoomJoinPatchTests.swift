import Testing

@testable import Agent
@testable import AgentCore

/// A patch replaces what it sets and keeps the rest; `create` only adds creating.
@Suite struct RoomJoinPatchTests {
    static let join: RoomJoin = {
        var join = RoomJoin(
            endpoint: .janus(server: "ws://a/", room: "r1"), display: "bot", role: .host, create: false,
            iceAddresses: ["10.77.0.1"], timeouts: RoomTimeouts(connect: .seconds(3)), reconnect: .never)
        join.ignoredParticipantIDs = ["7"]
        return join
    }()
    static let credentials = RoomCredentials(token: "t0", pin: "p0")

    @Test("an empty patch changes nothing")
    func empty() {
        #expect(RoomJoinPatch().applied(to: Self.join) == Self.join)
        #expect(RoomJoinPatch().applied(to: Self.credentials) == Self.credentials)
    }

    @Test("each set field replaces its own and only its own")
    func fields() {
        var expected = Self.join
        expected.endpoint = .janus(server: "ws://b/", room: "r1")
        #expect(RoomJoinPatch(server: "ws://b/").applied(to: Self.join) == expected)
        expected.endpoint = .janus(server: "ws://a/", room: "r2")
        #expect(RoomJoinPatch(room: "r2").applied(to: Self.join) == expected)
        expected.endpoint = .janus(server: "ws://b/", room: "r2")
        #expect(RoomJoinPatch(server: "ws://b/", room: "r2").applied(to: Self.join) == expected)
        expected = Self.join
        expected.display = "other"
        #expect(RoomJoinPatch(display: "other").applied(to: Self.join) == expected)
        #expect(RoomJoinPatch(token: "t1").applied(to: Self.credentials) == RoomCredentials(token: "t1", pin: "p0"))
        #expect(RoomJoinPatch(pin: "p1").applied(to: Self.credentials) == RoomCredentials(token: "t0", pin: "p1"))
        #expect(RoomJoinPatch(token: "t1").applied(to: .none) == RoomCredentials(token: "t1"))
        // Credentials are not the join's business, and the join settings not the credentials'.
        #expect(RoomJoinPatch(token: "t1", pin: "p1").applied(to: Self.join) == Self.join)
        #expect(RoomJoinPatch(server: "ws://b/", room: "r2", create: true, display: "x").applied(to: Self.credentials) == Self.credentials)
    }

    @Test("create: true creates; false and nil keep the join's own")
    func createOnlyTrue() {
        var creating = Self.join
        creating.create = true
        #expect(RoomJoinPatch(create: true).applied(to: Self.join) == creating)
        #expect(RoomJoinPatch(create: true).applied(to: creating) == creating)
        #expect(RoomJoinPatch(create: false).applied(to: creating) == creating)
        #expect(RoomJoinPatch(create: false).applied(to: Self.join) == Self.join)
        #expect(RoomJoinPatch(create: nil).applied(to: creating) == creating)
    }

    @Test("on a WHIP endpoint the server replaces the URL and a room changes nothing")
    func whip() {
        var join = Self.join
        join.endpoint = .whip(url: "http://h/whip/endpoint/a")
        #expect(RoomJoinPatch(server: "http://h/whip/endpoint/b").applied(to: join).endpoint == .whip(url: "http://h/whip/endpoint/b"))
        #expect(RoomJoinPatch(room: "r2").applied(to: join) == join)
    }

    @Test("a patch's token and pin are redacted in every textual form")
    func redacted() {
        let patch = RoomJoinPatch(server: "ws://b/", token: "s3cret-core-token", pin: "pin-4321", display: "visible")
        let texts = [
            "\(patch)", String(reflecting: patch), RoomCredentialsTests.dumped(patch),
        ] + RoomCredentialsTests.mirrorText(patch)
        for text in texts { #expect(!RoomCredentialsTests.containsSecret(text), "\(text)") }
        #expect("\(patch)".contains("visible") && "\(patch)".contains("<redacted 17 bytes>"), "\(patch)")
    }
}
