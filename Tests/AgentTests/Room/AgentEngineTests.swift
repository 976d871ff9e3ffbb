import Foundation
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus
@testable import AgentTransport

/// The engine and its channels against a scripted Janus (no lab): states in order, one channel
/// per room, names checked before anything connects, tokens refused once and renewed in place.
@Suite("AgentEngine", .serialized)
struct AgentEngineTests {
    /// A fake Janus on its own loop, and an engine with one loop of its own.
    final class Fixture: Sendable {
        let serverLoop = EventLoop(name: "test.fakejanus.engine")
        let server: LocalWebSocketServer
        let engine = AgentEngine(loopCount: 1, loopName: "test.engine")

        init() throws {
            server = try LocalWebSocketServer(loop: serverLoop, protocols: ["janus-protocol"], respond: FakeJanusRoom.respond)
        }

        var url: String { server.url }

        func close() async {
            await engine.shutdown()
            server.stop()
            serverLoop.shutdown()
        }
    }

    static func join(_ server: String, room: String, lead: Duration = .seconds(30)) -> RoomJoin {
        RoomJoin(
            endpoint: .janus(server: server, room: room), display: "engine-test", iceAddresses: ["127.0.0.1"],
            timeouts: RoomTimeouts(tokenExpiryLead: lead))
    }

    static func state(_ event: ChannelEvent?) -> ConnectionState? {
        if case .connectionStateChanged(let state) = event { return state }
        return nil
    }

    @Test("join reports connecting then connected; leave reports left and ends the events")
    func joinAndLeave() async throws {
        let fixture = try Fixture()
        do {
            let channel = try await fixture.engine.join(Self.join(fixture.url, room: "lobby"))
            let events = EventCollector(channel.events)
            #expect(Self.state(try await events.next(within: .seconds(5))) == .connecting)
            #expect(Self.state(try await events.next(within: .seconds(5))) == .connected)
            #expect(channel.connectionState == .connected)
            #expect(await fixture.engine.channels.count == 1)
            let joins = FakeJanusRoom.requests(fixture.server.received, verb: "message", request: "join")
            #expect(joins.count == 1 && joins.first?["body"]?["display"]?.stringValue == "engine-test")

            await fixture.engine.leave(channel)
            #expect(Self.state(try await events.first(within: .seconds(5)) { Self.state($0) != nil }) == .disconnected(reason: .left))
            #expect(try await events.next(within: .seconds(5)) == nil, "the stream ends after disconnected")
            #expect(await fixture.engine.channels.isEmpty)
            #expect(FakeJanusRoom.requests(fixture.server.received, verb: "message", request: "leave").count == 1)
        } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }

    @Test("a second join of the same room throws alreadyJoined; other rooms join beside it")
    func oneChannelPerRoom() async throws {
        let fixture = try Fixture()
        do {
            let first = try await fixture.engine.join(Self.join(fixture.url, room: "stage"))
            // The same server spelled without its trailing slash is the same server.
            let sameServer = String(fixture.url.dropLast())
            await #expect(throws: AgentError.alreadyJoined(server: sameServer, room: "stage")) {
                _ = try await fixture.engine.join(Self.join(sameServer, room: "stage"))
            }
            let second = try await fixture.engine.join(Self.join(fixture.url, room: "backstage"))
            #expect(await fixture.engine.channels.map(\.room) == ["stage", "backstage"])
            await fixture.engine.leave(first)
            #expect(second.connectionState == .connected, "leaving one channel leaves the other alone")
            let again = try await fixture.engine.join(Self.join(fixture.url, room: "stage"))
            #expect(await fixture.engine.channels.map(\.room) == ["backstage", "stage"])
            #expect(again !== first)
        } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }

    @Test("room names outside ^[A-Za-z0-9_-]{1,64}$ are refused before anything connects")
    func invalidNames() async throws {
        let fixture = try Fixture()
        for name in ["", "with space", "slash/room", String(repeating: "x", count: 65)] {
            await #expect(throws: AgentError.invalidName(name)) {
                _ = try await fixture.engine.join(Self.join(fixture.url, room: name))
            }
        }
        #expect(fixture.server.received.isEmpty)
        #expect(await fixture.engine.channels.isEmpty)
        await fixture.close()
    }

    @Test("an expired token is tokenExpired after one request, and frees the room for another try")
    func expiredToken() async throws {
        let fixture = try Fixture()
        do {
            let expiry = Date().addingTimeInterval(-10)
            let expired = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: expiry).value
            let started = ContinuousClock.now
            await #expect(throws: AgentError.tokenExpired(expiredAt: Date(timeIntervalSince1970: expiry.timeIntervalSince1970.rounded(.down)))) {
                _ = try await fixture.engine.join(Self.join(fixture.url, room: "vip"), credentials: RoomCredentials(token: expired))
            }
            #expect(ContinuousClock.now - started < .seconds(3))
            #expect(FakeJanusRoom.requests(fixture.server.received, verb: "create").count == 1, "one attempt, no retry")
            #expect(await fixture.engine.channels.isEmpty)
            let fresh = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: Date().addingTimeInterval(600)).value
            _ = try await fixture.engine.join(Self.join(fixture.url, room: "vip"), credentials: RoomCredentials(token: fresh))
        } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }

    @Test("tokenWillExpire comes at once with less than the lead left, again after renewToken; later requests carry the new token")
    func tokenWarningAndRenewal() async throws {
        let fixture = try Fixture()
        do {
            let firstExpiry = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 20).rounded(.down))
            let first = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: firstExpiry).value
            let channel = try await fixture.engine.join(Self.join(fixture.url, room: "tokens", lead: .seconds(30)), credentials: RoomCredentials(token: first))
            let events = EventCollector(channel.events)
            let warning = try await events.first(within: .seconds(5)) { if case .tokenWillExpire = $0 { true } else { false } }
            guard case .tokenWillExpire(let expiresAt) = warning else { throw DeadlineExceeded(what: "first warning", limit: .seconds(5)) }
            #expect(expiresAt == firstExpiry)

            // 30.6 s left with a 30 s lead: the warning comes about 0.6 s after the renewal.
            let secondExpiry = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 31.6).rounded(.down))
            let second = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: secondExpiry).value
            let renewed = ContinuousClock.now
            await channel.renewToken(second)
            let next = try await events.first(within: .seconds(5)) { if case .tokenWillExpire = $0 { true } else { false } }
            guard case .tokenWillExpire(let nextExpiry) = next else { throw DeadlineExceeded(what: "second warning", limit: .seconds(5)) }
            #expect(nextExpiry == secondExpiry)
            #expect(ContinuousClock.now - renewed > .milliseconds(300), "armed for lead before the new expiry, not at once")

            await fixture.engine.leave(channel)
            let received = fixture.server.received
            #expect(FakeJanusRoom.requests(received, verb: "create").count == 1, "renewal does not reconnect")
            let leave = try #require(FakeJanusRoom.requests(received, verb: "message", request: "leave").first)
            #expect(leave["token"]?.stringValue == second)
        } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }

    @Test("statsReport comes every statsInterval, even with nobody in the room")
    func statsEveryInterval() async throws {
        let fixture = try Fixture()
        do {
            let channel = try await fixture.engine.join(Self.join(fixture.url, room: "quiet"), options: ChannelOptions(statsInterval: .milliseconds(200)))
            let events = EventCollector(channel.events)
            // The reports' own times: a consumer starved for a moment reads several at once.
            var times: [Date] = []
            while times.count < 6 {
                let event = try await events.first(within: .seconds(3)) { if case .statsReport = $0 { true } else { false } }
                guard case .statsReport(let report) = event else { break }
                #expect(report.participants.isEmpty && report.room == "quiet" && report.interval == .milliseconds(200))
                times.append(report.measuredAt)
            }
            let spacing = times[5].timeIntervalSince(times[1]) / 4
            #expect(spacing > 0.15 && spacing < 0.3, "\(spacing) s")
        } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }
}
