import Agent
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import BotKit

/// A ``Bot`` rejoining through its ``LinkDriver`` over a scripted host platform (no network):
/// the BotEvents and their texts for a drop, a refused rejoin, a limit reached and no retrying.
@Suite struct BotLinkTests {
    /// Host sessions that publish onto a loopback PeerConnection that never connects, fail the
    /// joins the script names, and drop when told, as a publisher whose signaling closed does.
    final class HostPlatform: Sendable {
        private struct State {
            /// Joins by number (from 1) that throw.
            var failing: [Int: AgentError] = [:]
            var joins = 0
            var sessions: [ScriptedHost] = []
        }

        private let state = Mutex(State())

        func failJoin(_ number: Int, with error: AgentError) {
            state.withLock { $0.failing[number] = error }
        }

        var joins: Int { state.withLock { $0.joins } }

        /// The session of the latest join.
        var latest: ScriptedHost? { state.withLock { $0.sessions.last } }

        var platform: RoomPlatform {
            RoomPlatform { [self] join, _, context throws(AgentError) in
                let (number, failure) = state.withLock { state in
                    state.joins += 1
                    return (state.joins, state.failing[state.joins])
                }
                let session = ScriptedHost(number: number, failure: failure, context: context)
                state.withLock { $0.sessions.append(session) }
                return session
            }
        }
    }

    actor ScriptedHost: RoomSession {
        nonisolated let capabilities: RoomSessionCapabilities = [.publish]
        let number: Int
        private let failure: AgentError?
        private let context: RoomSessionContext
        private var peer: PeerConnection?

        init(number: Int, failure: AgentError?, context: RoomSessionContext) {
            self.number = number
            self.failure = failure
            self.context = context
        }

        /// Ends the session from outside, as JanusPublisher reports a closed signaling connection.
        nonisolated func drop(_ reason: String) {
            context.events(.room(.connectionState(.disconnected(reason: .gaveUp(reason)), at: Date())))
        }

        func connect() async throws(AgentError) {
            if let failure { throw failure }
        }

        func publish(tracks: [TrackOffer], dataChannel: Bool) async throws(AgentError) -> RoomPublication {
            do {
                let peer = try PeerConnection(loop: context.loop, localAddresses: ["127.0.0.1"])
                self.peer = peer
                return RoomPublication(publisherID: "me-\(number)", session: try PublishSession(peer: peer, tracks: tracks), tracks: tracks)
            } catch {
                throw AgentError.mediaFailed("\(error)")
            }
        }

        func send(_ payload: DataChannelMessage.Payload) async throws(AgentError) {}
        func sendStatistics() async -> [String: SendStreamStatistics] { [:] }
        nonisolated func requestKeyframe(participantID: String, kind: MediaKind) {}
        func updateCredentials(_ credentials: RoomCredentials) async {}
        nonisolated func tokenExpiry(of credentials: RoomCredentials) -> Date? { nil }

        func teardown() async {
            peer?.close()
            peer = nil
        }
    }

    /// The bot's connection events as lines ("reconnecting 1: …"), in order.
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
    }

    /// A bot over `host` and the lines of its events.
    struct Fixture {
        let host = HostPlatform()
        let loop = EventLoop(name: "test.bot.link")
        let engine: AgentEngine
        let bot: Bot
        let lines = Lines()
        let watcher: Task<Void, Never>

        init(_ policy: ReconnectPolicy) {
            let configuration = BotConfiguration(
                server: "ws://127.0.0.1:1/", room: "r1", display: "bot", iceAddresses: ["127.0.0.1"], listens: false, reconnect: policy)
            engine = AgentEngine(loops: [loop], platform: host.platform)
            bot = Bot(configuration: configuration, engine: engine)
            let lines = self.lines, events = bot.events
            watcher = Task {
                for await event in events {
                    let line: String? = switch event {
                    case .connected(let id): "connected \(id)"
                    case .reconnecting(let attempt, let reason): "reconnecting \(attempt): \(reason)"
                    case .reconnected(let id): "reconnected \(id)"
                    case .connectionLost(let why): "lost: \(why)"
                    case .stopped: "stopped"
                    default: nil
                    }
                    if let line { lines.all.withLock { $0.append(line) } }
                }
            }
        }

        func start() async throws {
            try await bot.start(BotMedia(audioTrack: try AudioTrack(configuration: .init()), dataChannel: false))
        }

        func waitFor(_ line: String) async throws {
            try await pollUntil(timeout: .seconds(10), line) { lines.all.withLock { $0.contains(line) } }
        }

        /// Runs `body` on the started bot, then stops everything whatever happened, and returns the lines.
        func run(_ body: (Fixture) async throws -> Void) async throws -> [String] {
            do {
                try await start()
                try await body(self)
            } catch {
                _ = await close()
                throw error
            }
            return await close()
        }

        func close() async -> [String] {
            await bot.stop()
            await watcher.value
            await engine.shutdown()
            loop.shutdown()
            return lines.all.withLock { $0 }
        }
    }

    static let quick = ReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(40), maximumDuration: .seconds(10))
    static let drop = "the signaling connection to Janus closed"

    @Test("a drop: reconnecting(1) with the drop's reason, a new channel, reconnected under the new id")
    func dropAndRejoin() async throws {
        let fixture = Fixture(Self.quick)
        let lines = try await fixture.run { fixture in
            fixture.host.latest?.drop(Self.drop)
            try await fixture.waitFor("reconnected me-2")
        }
        #expect(lines == ["connected me-1", "reconnecting 1: \(Self.drop)", "reconnected me-2", "stopped"])
        #expect(fixture.host.joins == 2)
    }

    @Test("a rejoin refused: connectionLost with the drop and the refusal, no further attempt")
    func refusedRejoin() async throws {
        let fixture = Fixture(Self.quick)
        fixture.host.failJoin(2, with: .tokenRefused("403 Unauthorized request"))
        let lost = "lost: \(Self.drop); rejoining was refused: \(AgentError.tokenRefused("403 Unauthorized request"))"
        let lines = try await fixture.run { fixture in
            fixture.host.latest?.drop(Self.drop)
            try await fixture.waitFor(lost)
        }
        #expect(lines == ["connected me-1", "reconnecting 1: \(Self.drop)", lost, "stopped"])
        #expect(fixture.host.joins == 2)
    }

    @Test("retries that fail up to the limit: reconnecting 1 and 2, then connectionLost with the count")
    func givesUp() async throws {
        var policy = Self.quick
        policy.maximumAttempts = 2
        let fixture = Fixture(policy)
        fixture.host.failJoin(2, with: .unreachable(server: "ws://127.0.0.1:1/", reason: "connection refused"))
        fixture.host.failJoin(3, with: .unreachable(server: "ws://127.0.0.1:1/", reason: "connection refused"))
        let lost = "lost: \(Self.drop); gave up after 2 attempt(s) to rejoin"
        let lines = try await fixture.run { fixture in
            fixture.host.latest?.drop(Self.drop)
            try await fixture.waitFor(lost)
        }
        #expect(lines == [
            "connected me-1", "reconnecting 1: \(Self.drop)", "reconnecting 2: \(Self.drop)", lost, "stopped",
        ])
        #expect(fixture.host.joins == 3)
    }

    @Test("told never to reconnect: connectionLost with the drop's reason at once, no rejoin")
    func neverReconnects() async throws {
        let fixture = Fixture(.never)
        let lines = try await fixture.run { fixture in
            fixture.host.latest?.drop(Self.drop)
            try await fixture.waitFor("lost: \(Self.drop)")
        }
        #expect(lines == ["connected me-1", "lost: \(Self.drop)", "stopped"])
        #expect(fixture.host.joins == 1)
    }
}
