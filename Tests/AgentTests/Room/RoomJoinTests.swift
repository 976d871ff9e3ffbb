import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus

/// RoomJoin's defaults are today's, read from the join copies it replaces, and its endpoint
/// and channel key say which room a join means.
@Suite struct RoomJoinTests {
    static let janus = RoomEndpoint.janus(server: "ws://10.77.0.2:8188/", room: "r1")

    /// The values the Janus audience and publisher had as their own defaults before they took a
    /// RoomJoin (JanusAudience.Configuration: `.standard`, probe every 5 s, ICE restart 10 s, no
    /// ignored publishers, no create; JanusPublisher.Configuration: connect 15 s).
    @Test("the defaults are the Janus audience's for reconnecting, probing and ICE restarts")
    func defaultsAreTheAudiences() {
        let join = RoomJoin(endpoint: Self.janus)
        let audience = JanusAudience.Configuration(server: "ws://10.77.0.2:8188/", room: "r1", display: "x", iceAddresses: [])
        #expect(join.reconnect == .standard && audience.reconnect == .standard)
        #expect(join.timeouts.healthCheck == .seconds(5) && audience.healthCheckInterval == .seconds(5))
        #expect(join.timeouts.iceRestart == .seconds(10) && audience.join.timeouts.iceRestart == .seconds(10))
        #expect(join.ignoredParticipantIDs.isEmpty && audience.join.ignoredParticipantIDs.isEmpty)
        #expect(!join.create && !audience.join.create)
    }

    @Test("the default connect timeout is the Janus publisher's")
    func connectTimeoutIsThePublishers() {
        #expect(RoomJoin(endpoint: Self.janus).timeouts.connect == .seconds(15))
        #expect(RoomJoin(endpoint: Self.janus).create == false)
    }

    @Test("a Janus endpoint has its server and room; a WHIP endpoint its URL and no room")
    func endpoints() {
        let janus = RoomJoin(endpoint: .janus(server: "ws://h:8188/", room: "lobby"))
        #expect(janus.server == "ws://h:8188/" && janus.room == "lobby")
        let whip = RoomJoin(endpoint: .whip(url: "http://10.77.0.2:7080/whip/endpoint/abc"))
        #expect(whip.server == "http://10.77.0.2:7080/whip/endpoint/abc" && whip.room == nil)
    }

    @Test("the key is ChannelKey's: server case and trailing slash do not count, the room and the display do and do not")
    func key() {
        let join = RoomJoin(endpoint: .janus(server: "WS://H:8188/", room: "r1"), display: "a")
        #expect(join.key == ChannelKey(server: "ws://h:8188", room: "r1"))
        #expect(join.key == RoomJoin(endpoint: .janus(server: "ws://h:8188", room: "r1"), display: "b", role: .host).key)
        #expect(join.key != RoomJoin(endpoint: .janus(server: "ws://h:8188", room: "R1")).key)
        let whip = RoomJoin(endpoint: .whip(url: "http://H:7080/whip/endpoint/abc"))
        #expect(whip.key == ChannelKey(server: "http://h:7080/whip/endpoint/abc", room: ""))
        #expect(whip.key != RoomJoin(endpoint: .whip(url: "http://h:7080/whip/endpoint/abd")).key)
    }

    @Test("every field counts for equality, the ignored participants too")
    func equality() {
        let join = RoomJoin(endpoint: Self.janus)
        var other = join
        other.ignoredParticipantIDs = ["42"]
        #expect(join != other)
        other = join
        other.timeouts.iceRestart = .seconds(3)
        #expect(join != other)
        #expect(join == RoomJoin(endpoint: Self.janus))
    }
}
