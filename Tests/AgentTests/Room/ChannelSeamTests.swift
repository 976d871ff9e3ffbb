import Foundation
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentTransport

/// A ``Channel`` over ``RoomSession`` with a fake platform behind it (no network): what the
/// channel asks of the seam and what it makes of the answers.
@Suite struct ChannelSeamTests {
    static let janus = RoomEndpoint.janus(server: "ws://10.77.0.2:8188/", room: "r1")
    static let tracks = [
        TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1),
        TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 2),
    ]

    /// An engine on a loop of its own whose channels run over `fake`.
    struct Fixture {
        let fake: FakeRoomPlatform
        let loop = EventLoop(name: "test.seam")
        let engine: AgentEngine

        init(_ script: FakeRoomPlatform.Script = .init()) {
            fake = FakeRoomPlatform(script)
            engine = AgentEngine(loops: [loop], platform: fake.platform)
        }

        func close() async {
            await engine.shutdown()
            loop.shutdown()
        }

        /// Runs `body`, then closes the fixture whatever happened.
        func run(_ body: (Fixture) async throws -> Void) async throws {
            do {
                try await body(self)
            } catch {
                await close()
                throw error
            }
            await close()
        }
    }

    static func host(listens: Bool = true, dataChannel: Bool = true) -> ChannelOptions {
        ChannelOptions(host: HostOptions(tracks: tracks, dataChannel: dataChannel, listens: listens))
    }

    static func state(_ event: ChannelEvent?) -> ConnectionState? {
        if case .connectionStateChanged(let state) = event { return state }
        return nil
    }

    @Test("an audience channel: each user comes before their tracks, after connected")
    func rosterBeforeTracks() async throws {
        var script = FakeRoomPlatform.Script()
        script.roster = [.init(id: "a", display: "Ann", kinds: [.audio, .video]), .init(id: "b", display: "Bob", kinds: [.audio])]
        try await Fixture(script).run { fixture in
            let channel = try await fixture.engine.join(RoomJoin(endpoint: Self.janus))
            let events = EventCollector(channel.events)
            var seen: [String] = []
            while seen.count < 7 {
                guard let event = try await events.next(within: .seconds(30)) else { break }
                switch event {
                case .connectionStateChanged(.connecting): seen.append("connecting")
                case .connectionStateChanged(.connected): seen.append("connected")
                case .connectionStateChanged: seen.append("another state")
                case .userJoined(let user): seen.append("joined \(user.id)")
                case .trackSubscribed(let user, let track): seen.append("track \(user.id) \(track.kind)")
                default: break
                }
            }
            #expect(seen == ["connecting", "connected", "joined a", "track a audio", "track a video", "joined b", "track b audio"])
            #expect(channel.users.map(\.id) == ["a", "b"])
            #expect(fixture.fake.calls.prefix(2) == [
                .made(role: .audience, ignored: [], create: false, credentials: .none), .connect(.audience),
            ])
        }
    }

    @Test("a listening host publishes first, then listens without creating and ignoring its own publisher")
    func hostThenListener() async throws {
        var script = FakeRoomPlatform.Script()
        script.roster = [.init(id: "me", display: "bot", kinds: [.audio]), .init(id: "a", display: "Ann", kinds: [.audio])]
        try await Fixture(script).run { fixture in
            let credentials = RoomCredentials(token: "t1", pin: "p1")
            let channel = try await fixture.engine.join(
                RoomJoin(endpoint: Self.janus, display: "bot", role: .host, create: true), credentials: credentials, options: Self.host())
            #expect(await channel.localUserID == "me")
            #expect(await channel.publishedTracks.map(\.mid) == ["0", "1"])
            #expect(await channel.publishSession != nil)
            #expect(channel.users.map(\.id) == ["a"], "our own publisher is not announced")
            #expect(fixture.fake.calls == [
                .made(role: .host, ignored: [], create: true, credentials: credentials), .connect(.host),
                .publish(mids: ["0", "1"], dataChannel: true),
                .made(role: .audience, ignored: ["me"], create: false, credentials: credentials), .connect(.audience),
            ])
        }
    }

    @Test("renewToken hands the new token (and the kept pin) to every session and warns again before its expiry")
    func renewToken() async throws {
        var script = FakeRoomPlatform.Script()
        let expiry = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 5).rounded(.down))
        script.tokenExpiry = expiry
        try await Fixture(script).run { fixture in
            let channel = try await fixture.engine.join(
                RoomJoin(endpoint: Self.janus, role: .host), credentials: RoomCredentials(token: "t1", pin: "p1"), options: Self.host())
            let events = EventCollector(channel.events)
            // 5 s left with the default 30 s lead: the warning comes at once.
            let first = try await events.first(within: .seconds(30)) { if case .tokenWillExpire = $0 { true } else { false } }
            guard case .tokenWillExpire(let expiresAt) = first else { throw DeadlineExceeded(what: "a warning", limit: .seconds(30)) }
            #expect(expiresAt == expiry)

            await channel.renewToken("t2")
            let renewed = RoomCredentials(token: "t2", pin: "p1")
            #expect(fixture.fake.calls.filter { if case .updateCredentials = $0 { true } else { false } } == [
                .updateCredentials(.audience, renewed), .updateCredentials(.host, renewed),
            ])
            let again = try await events.first(within: .seconds(30)) { if case .tokenWillExpire = $0 { true } else { false } }
            #expect(again != nil, "armed again for the renewed token")
        }
    }

    @Test("send goes to the host session; an audience channel is notHost, a closed one channelClosed")
    func send() async throws {
        try await Fixture().run { fixture in
            let host = try await fixture.engine.join(RoomJoin(endpoint: Self.janus, role: .host), options: Self.host(listens: false))
            try await host.send(text: "hi")
            #expect(fixture.fake.calls.last == .send(.text("hi")))

            let audience = try await fixture.engine.join(RoomJoin(endpoint: .janus(server: "ws://10.77.0.2:8188/", room: "r2")))
            await #expect(throws: AgentError.notHost) { try await audience.send(text: "no") }

            await fixture.engine.leave(host)
            await #expect(throws: AgentError.channelClosed) { try await host.send(text: "late") }
        }
    }

    @Test("leaving tears every session down once and ends the events with left")
    func stop() async throws {
        try await Fixture().run { fixture in
            let channel = try await fixture.engine.join(RoomJoin(endpoint: Self.janus, role: .host), options: Self.host())
            let events = EventCollector(channel.events)
            await fixture.engine.leave(channel)
            await fixture.engine.leave(channel)
            #expect(fixture.fake.calls.filter { if case .teardown = $0 { true } else { false } } == [.teardown(.audience), .teardown(.host)])
            #expect(Self.state(try await events.first(within: .seconds(30)) { Self.state($0)?.isFinal ?? false }) == .disconnected(reason: .left))
            #expect(try await events.next(within: .seconds(30)) == nil)
        }
    }

    @Test("a failed connect tears the session down and frees the room for the next join")
    func failedJoinFreesTheRoom() async throws {
        var script = FakeRoomPlatform.Script()
        script.connectError = .roomRefused("wrong pin")
        try await Fixture(script).run { fixture in
            await #expect(throws: AgentError.roomRefused("wrong pin")) { try await fixture.engine.join(RoomJoin(endpoint: Self.janus)) }
            #expect(fixture.fake.calls.last == .teardown(.audience))
            #expect(await fixture.engine.channels.isEmpty)
            // The room is free again: the next join is made (and fails the same way), not alreadyJoined.
            await #expect(throws: AgentError.roomRefused("wrong pin")) { try await fixture.engine.join(RoomJoin(endpoint: Self.janus)) }
            #expect(fixture.fake.calls.filter { $0 == .connect(.audience) }.count == 2)
        }
    }

    @Test("the platform's error is the join's; a refusal ends the channel refused, another failure gave up")
    func refusalMapping() async throws {
        let cases: [(AgentError, DisconnectReason)] = [
            (.roomRefused("wrong pin"), .refused("the room refused us: wrong pin")),
            (.tokenRefused("Unauthorized request"), .refused("the token was refused: Unauthorized request")),
            (.unreachable(server: "ws://10.77.0.2:8188/", reason: "refused"), .gaveUp("cannot reach ws://10.77.0.2:8188/: refused")),
            (.mediaFailed("ice"), .gaveUp("the media connection failed: ice")),
        ]
        for (error, reason) in cases {
            var script = FakeRoomPlatform.Script()
            script.connectError = error
            let fake = FakeRoomPlatform(script)
            let loop = EventLoop(name: "test.seam.refused")
            defer { loop.shutdown() }
            let join = RoomJoin(endpoint: Self.janus)
            let channel = Channel(join: join, credentials: .none, key: join.key, options: ChannelOptions(), loop: loop, platform: fake.platform)
            let events = EventCollector(channel.events)
            await #expect(throws: error) { try await channel.open() }
            #expect(Self.state(try await events.first(within: .seconds(30)) { Self.state($0)?.isFinal ?? false }) == .disconnected(reason: reason))
        }
    }

    @Test("a listening host on a platform without a roster is refused before anything is sent")
    func listensNeedsARoster() async throws {
        var script = FakeRoomPlatform.Script()
        script.capabilities = [.publish]
        try await Fixture(script).run { fixture in
            let refused = AgentError.unsupported("a listening host on a platform without a roster (set listens to false)")
            await #expect(throws: refused) { try await fixture.engine.join(RoomJoin(endpoint: Self.janus, role: .host), options: Self.host()) }
            #expect(!fixture.fake.calls.contains(.connect(.host)), "\(fixture.fake.calls)")
            // Without listens the same platform publishes.
            let channel = try await fixture.engine.join(RoomJoin(endpoint: Self.janus, role: .host), options: Self.host(listens: false))
            #expect(await channel.localUserID == "me")
        }
    }

    @Test("the built-in platform takes a WHIP endpoint for a host that does not listen, and refuses a listener or an audience before anything is sent")
    func whipPublishesOnly() async throws {
        let loop = EventLoop(name: "test.seam.whip")
        let engine = AgentEngine(loops: [loop])
        let port = try LocalHTTPServer.closedPort()
        let host = RoomJoin(endpoint: .whip(url: "http://127.0.0.1:\(port)/whip/endpoint/x"), role: .host, iceAddresses: ["127.0.0.1"])
        await #expect(throws: AgentError.unsupported("a listening host on a platform without a roster (set listens to false)")) {
            try await engine.join(host, options: Self.host(listens: true))
        }
        var audience = host
        audience.role = .audience
        await #expect(throws: AgentError.unsupported("an audience channel on a platform without a roster")) {
            try await engine.join(audience, options: ChannelOptions())
        }
        // A host that does not listen gets as far as the endpoint: nobody listens on that port.
        let error = await #expect(throws: AgentError.self) { try await engine.join(host, options: Self.host(listens: false, dataChannel: false)) }
        guard case .unreachable(let server, _) = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(server == host.server)
        #expect(await engine.channels.isEmpty)
        await engine.shutdown()
        loop.shutdown()
    }
}

extension ConnectionState {
    /// Whether this is the channel's last state.
    fileprivate var isFinal: Bool {
        if case .disconnected = self { return true }
        return false
    }
}
