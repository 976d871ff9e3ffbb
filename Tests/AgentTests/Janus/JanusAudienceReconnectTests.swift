import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus
@testable import AgentTransport

/// ``JanusAudience``'s reconnect logic against a scripted fake Janus (no media, no lab): drops
/// are noticed, rejoins resync the roster, refusals end at once and retries stop at the limit.
@Suite struct JanusAudienceReconnectTests {
    /// A fake Janus whose behaviour the test changes while it runs.
    final class FakeJanus: Sendable {
        struct Script {
            var publishers: [String] = []
            var refuseCreate = false
            var keepaliveAnswer = "ack"
            var creates = 0
            var sessions: Int64 = 100
            var handles: Int64 = 1000
        }

        let script = Mutex(Script())

        func respond(_ text: String) -> [String] {
            guard let request = try? JSONValue(parsing: text), let verb = request["janus"]?.stringValue,
                let transaction = request["transaction"]?.stringValue
            else { return [] }
            let tx = JSONValue.string(transaction)
            let session = request["session_id"] ?? .null
            func reply(_ object: [String: JSONValue]) -> String { JSONValue.object(object).serialized() }
            func event(_ data: JSONValue) -> String {
                reply(["janus": "event", "transaction": tx, "session_id": session, "sender": request["handle_id"] ?? .null,
                       "plugindata": ["plugin": "janus.plugin.videoroom", "data": data]])
            }
            let state = script.withLock { script -> Script in
                if verb == "create" { script.creates += 1 }
                if verb == "create", !script.refuseCreate { script.sessions += 1 }
                if verb == "attach" { script.handles += 1 }
                return script
            }
            switch verb {
            case "create":
                if state.refuseCreate {
                    return [reply(["janus": "error", "transaction": tx, "error": ["code": 403, "reason": "Unauthorized request"]])]
                }
                return [reply(["janus": "success", "transaction": tx, "data": ["id": .integer(state.sessions)]])]
            case "attach":
                return [reply(["janus": "success", "transaction": tx, "session_id": session, "data": ["id": .integer(state.handles)]])]
            case "keepalive" where state.keepaliveAnswer == "458":
                return [reply(["janus": "error", "transaction": tx, "session_id": session,
                               "error": ["code": 458, "reason": "No such session"]])]
            case "keepalive", "trickle":
                return [reply(["janus": "ack", "transaction": tx, "session_id": session])]
            case "detach", "destroy":
                return [reply(["janus": "success", "transaction": tx, "session_id": session])]
            case "message":
                let ack = reply(["janus": "ack", "transaction": tx, "session_id": session])
                let body = request["body"]
                switch (body?["request"]?.stringValue, body?["ptype"]?.stringValue) {
                case ("join", "publisher"):
                    let publishers = JSONValue.array(state.publishers.map { ["id": .string($0), "display": .string("user-\($0)")] })
                    return [ack, event(["videoroom": "joined", "room": "r1", "id": .string("me-\(state.sessions)"),
                                        "private_id": 7, "publishers": publishers])]
                case ("join", "subscriber"):
                    return [ack, event(["videoroom": "event", "error_code": 428, "error": "No such feed"])]
                case ("leave", _):
                    return [ack, event(["videoroom": "event", "leaving": "ok"])]
                default:
                    return []
                }
            default:
                return []
            }
        }
    }

    /// Events the audience reported, for polling.
    final class Events: Sendable {
        let all = Mutex<[RoomEvent]>([])
        func append(_ event: RoomEvent) { all.withLock { $0.append(event) } }
        var states: [ConnectionState] {
            all.withLock { $0.compactMap { if case .connectionState(let state, _) = $0 { state } else { nil } } }
        }
        /// A compact trace: "joined:a", "left:a", "state:connected"…
        var trace: [String] {
            all.withLock { events in
                events.compactMap { event in
                    switch event {
                    case .participantJoined(let id, _, _): "joined:\(id)"
                    case .participantLeft(let id, _): "left:\(id)"
                    case .connectionState(.reconnecting, _): "state:reconnecting"
                    case .connectionState(let state, _): "state:\(state)"
                    default: nil
                    }
                }
            }
        }
    }

    struct Harness {
        let fake = FakeJanus()
        let events = Events()
        let serverLoop = EventLoop(name: "test.fakejanus")
        let clientLoop = EventLoop(name: "test.audience")
        let server: LocalWebSocketServer
        let audience: JanusAudience

        init(policy: ReconnectPolicy, healthCheck: Duration = .seconds(5)) throws {
            let fake = self.fake, events = self.events
            server = try LocalWebSocketServer(loop: serverLoop, protocols: ["janus-protocol"]) { fake.respond($0) }
            var configuration = JanusAudience.Configuration(server: server.url, room: "r1", display: "agent", iceAddresses: ["127.0.0.1"])
            configuration.reconnect = policy
            configuration.healthCheckInterval = healthCheck
            audience = JanusAudience(configuration: configuration, loop: clientLoop) { events.append($0) }
        }

        func shutDown() async {
            await audience.stop()
            server.stop()
            clientLoop.shutdown()
            serverLoop.shutdown()
        }
    }

    static let quick = ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(80), maximumDuration: .seconds(10))

    @Test("a closed socket: reconnecting, rejoin, the roster resynced (gone leave before connected, new join after)")
    func rejoinsAndResyncsTheRoster() async throws {
        let harness = try Harness(policy: Self.quick)
        harness.fake.script.withLock { $0.publishers = ["a", "b"] }
        try await harness.audience.start()
        #expect(harness.events.trace == ["state:connecting", "state:connected", "joined:a", "joined:b"])

        harness.fake.script.withLock { $0.publishers = ["b", "c"] }
        harness.server.closeClients(code: 1001, reason: "restart")
        try await pollUntil(timeout: .seconds(10), "back in the room") { harness.events.states.last == .connected && harness.events.states.count > 2 }
        #expect(harness.events.trace == ["state:connecting", "state:connected", "joined:a", "joined:b",
                                         "state:reconnecting", "left:a", "state:connected", "joined:c"])
        #expect(await harness.audience.reconnects == 1)
        #expect(harness.fake.script.withLock { $0.creates } == 2)
        await harness.shutDown()
        #expect(harness.events.states.last == .disconnected(reason: .left))
    }

    @Test("Janus answering a keepalive with 458 (it restarted): a new session")
    func sessionNotFoundRejoins() async throws {
        let harness = try Harness(policy: Self.quick, healthCheck: .milliseconds(50))
        try await harness.audience.start()
        harness.fake.script.withLock { $0.keepaliveAnswer = "458" }
        try await pollUntil(timeout: .seconds(10), "a rejoin") { harness.fake.script.withLock { $0.creates } >= 2 }
        harness.fake.script.withLock { $0.keepaliveAnswer = "ack" }
        try await pollUntil(timeout: .seconds(10), "connected again") { harness.events.states.last == .connected && harness.events.states.count > 2 }
        #expect(harness.events.states.contains(.reconnecting(attempt: 1)))
        await harness.shutDown()
    }

    @Test("a refused token while reconnecting: disconnected(refused) after one attempt, no retry storm")
    func refusalEndsAtOnce() async throws {
        let harness = try Harness(policy: Self.quick)
        try await harness.audience.start()
        harness.fake.script.withLock { $0.refuseCreate = true }
        harness.server.closeClients(code: 1001, reason: "restart")
        try await pollUntil(timeout: .seconds(10), "the end") {
            if case .disconnected = harness.events.states.last { true } else { false }
        }
        guard case .disconnected(.refused(let why)) = harness.events.states.last else {
            Issue.record("ended with \(String(describing: harness.events.states.last))")
            return
        }
        #expect(why.contains("403"))
        // With 20 ms delays a storm would make dozens of attempts in this time.
        try await Task.sleep(for: .milliseconds(500))
        #expect(harness.fake.script.withLock { $0.creates } == 2)
        #expect(await harness.audience.connectionState == .disconnected(reason: .refused(why)))
        await harness.shutDown()
    }

    @Test("a server that stays away: attempts with backoff up to the limit, then gaveUp")
    func givesUpAtTheLimit() async throws {
        var policy = Self.quick
        policy.maximumAttempts = 4
        let harness = try Harness(policy: policy)
        try await harness.audience.start()
        harness.server.stop()
        try await pollUntil(timeout: .seconds(20), "giving up") {
            if case .disconnected = harness.events.states.last { true } else { false }
        }
        let states = harness.events.states
        #expect(Array(states.dropFirst(2).prefix(4)) == (1...4).map { ConnectionState.reconnecting(attempt: $0) })
        guard case .disconnected(.gaveUp(let why)) = states.last else {
            Issue.record("ended with \(String(describing: states.last))")
            return
        }
        #expect(why.contains("4 attempt(s)"), "\(why)")
        await harness.shutDown()
    }
}
