import Foundation
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus
@testable import AgentSession
@testable import AgentTransport

/// The Janus adapter takes the whole join: the settings a channel's audience used to lose
/// (reconnect policy, connect, probe and ICE-restart timeouts) reach the JanusAudience, and the
/// role picks the actor. Nothing connects here.
@Suite struct JanusRoomSessionTests {
    static func context(_ loop: EventLoop) -> RoomSessionContext {
        RoomSessionContext(loop: loop, tickInterval: .milliseconds(40), statisticsInterval: .seconds(2), events: { _ in })
    }

    @Test("an audience session's JanusAudience runs on the join itself, with the context's intervals")
    func audienceTakesTheJoin() async {
        let loop = EventLoop(name: "test.janus.session")
        defer { loop.shutdown() }
        let join = RoomJoin(
            endpoint: .janus(server: "ws://127.0.0.1:1/", room: "r1"), display: "rec", create: true, iceAddresses: ["127.0.0.1"],
            timeouts: RoomTimeouts(connect: .seconds(4), iceRestart: .seconds(3), healthCheck: .seconds(2)), reconnect: .never)
        let credentials = RoomCredentials(token: "t", pin: "p")
        let session = JanusRoomSession(join: join, credentials: credentials, context: Self.context(loop))
        let configuration = await session.audience?.configuration
        #expect(configuration?.join == join)
        #expect(configuration?.credentials == credentials)
        #expect(configuration?.tickInterval == .milliseconds(40) && configuration?.statisticsInterval == .seconds(2))
        #expect(await session.publisher == nil)
        #expect(session.capabilities.contains([.roster, .publish, .data]))
        await session.teardown()
    }

    @Test("an audience's link recovers as its join says: the reconnect policy and ICE-restart timeout, in the link's words")
    func audienceLinkTakesTheJoin() {
        let join = RoomJoin(
            endpoint: .janus(server: "ws://127.0.0.1:1/", room: "r1"), timeouts: RoomTimeouts(iceRestart: .seconds(3)), reconnect: .never)
        #expect(JanusAudience.linkConfiguration(join) == LinkStateMachine.Configuration(
            reconnect: .never, iceRestartFirst: true, iceRestartTimeout: .seconds(3), probeMisses: 2, wording: .link))
    }

    @Test("a host session publishes through a JanusPublisher on the join; a token's expiry comes from the adapter")
    func hostTakesTheJoin() async {
        let loop = EventLoop(name: "test.janus.session.host")
        defer { loop.shutdown() }
        let join = RoomJoin(endpoint: .janus(server: "ws://127.0.0.1:1/", room: "r1"), role: .host)
        let session = JanusRoomSession(join: join, credentials: .none, context: Self.context(loop))
        #expect(session.audience == nil)
        #expect(await session.publisher?.join == join)
        #expect(session.tokenExpiry(of: RoomCredentials(token: "opaque")) == nil)
        let expiry = Date(timeIntervalSince1970: 1_900_000_000)
        let minted = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: expiry).value
        #expect(session.tokenExpiry(of: RoomCredentials(token: minted)) == expiry)
        await session.teardown()
    }
}
