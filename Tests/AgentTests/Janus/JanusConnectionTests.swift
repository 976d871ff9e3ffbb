import Agent
import Foundation
import TestSupport
import Testing

/// JanusConnection, JanusSession, JanusHandle and VideoRoom against a scripted fake Janus on a
/// local SoupServer (no lab needed): replies follow the Janus 1.x rules (ack then event for
/// plugin messages, ack for keepalive, success for create/attach/detach/destroy).
@Suite("JanusConnection")
struct JanusConnectionTests {
    static let sessionID: Int64 = 4_503_599_627_370_497  // above 2^52: ids must stay exact
    static let handleID: Int64 = 77

    /// The fake server's reply script.
    static func fakeJanus(_ text: String) -> [String] {
        guard let request = try? JSONValue(parsing: text), let verb = request["janus"]?.stringValue,
            let transaction = request["transaction"]?.stringValue
        else { return [] }
        let tx = JSONValue.string(transaction)
        let session = JSONValue.integer(sessionID)
        func reply(_ object: [String: JSONValue]) -> String { JSONValue.object(object).serialized() }
        func plugin(_ data: JSONValue) -> JSONValue { ["plugin": "janus.plugin.videoroom", "data": data] }
        if request["token"]?.stringValue == "expired" {
            return [reply(["janus": "error", "transaction": tx, "error": ["code": 403, "reason": "Unauthorized request (wrong or missing secret/token)"]])]
        }
        switch verb {
        case "create":
            return [reply(["janus": "success", "transaction": tx, "data": ["id": session]])]
        case "attach":
            return [reply(["janus": "success", "transaction": tx, "session_id": session, "data": ["id": .integer(handleID)]])]
        case "keepalive", "trickle":
            return [reply(["janus": "ack", "transaction": tx, "session_id": session])]
        case "detach", "destroy":
            return [reply(["janus": "success", "transaction": tx, "session_id": session])]
        case "message":
            let body = request["body"]
            let ack = reply(["janus": "ack", "transaction": tx, "session_id": session])
            let sender = JSONValue.integer(handleID)
            switch body?["request"]?.stringValue {
            case "exists":
                return [reply(["janus": "success", "transaction": tx, "session_id": session, "sender": sender,
                               "plugindata": plugin(["videoroom": "success", "room": body?["room"] ?? nil, "exists": true])])]
            case "join" where body?["room"]?.stringValue == "missing":
                return [ack, reply(["janus": "event", "transaction": tx, "session_id": session, "sender": sender,
                                    "plugindata": plugin(["videoroom": "event", "error_code": 426, "error": "No such room (missing)"])])]
            case "join":
                let publishers: JSONValue = [["id": "pub-1", "display": "Alice", "streams": [
                    ["type": "audio", "mindex": 0, "mid": "0", "codec": "opus"],
                    ["type": "video", "mindex": 1, "mid": "1", "codec": "vp8"]]]]
                return [
                    ack,
                    reply(["janus": "event", "transaction": tx, "session_id": session, "sender": sender,
                           "plugindata": plugin(["videoroom": "joined", "room": body?["room"] ?? nil, "id": "me-1",
                                                 "private_id": 99, "publishers": publishers])]),
                    // An unsolicited roster change right after the join: routed by "sender".
                    reply(["janus": "event", "session_id": session, "sender": sender,
                           "plugindata": plugin(["videoroom": "event", "room": body?["room"] ?? nil, "unpublished": "pub-1"])]),
                    "this is not json",
                ]
            case "leave":
                return [ack, reply(["janus": "event", "transaction": tx, "session_id": session, "sender": sender,
                                    "plugindata": plugin(["videoroom": "event", "leaving": "ok"])])]
            case "slow":
                return [ack]  // never answered: the request must time out
            default:
                return []
            }
        default:
            return []
        }
    }

    @Test("session, handle, join with ack then event, routed events, token on every request")
    func fullFlow() async throws {
        let serverLoop = EventLoop(name: "test.fakejanus")
        let clientLoop = EventLoop(name: "test.janusclient")
        defer {
            clientLoop.shutdown()
            serverLoop.shutdown()
        }
        let server = try LocalWebSocketServer(loop: serverLoop, protocols: ["janus-protocol"], respond: Self.fakeJanus)
        defer { server.stop() }

        let connection = JanusConnection(url: server.url, loop: clientLoop, token: "tok-1", requestTimeout: .seconds(5))
        try await connection.connect()
        let session = try await JanusSession.create(on: connection, keepaliveInterval: .milliseconds(50))
        #expect(session.id == Self.sessionID)
        let room = try await VideoRoom.attach(to: session)
        #expect(room.handle.id == Self.handleID)
        let events = EventCollector(room.handle.events)

        #expect(try await room.exists(room: "r1"))
        let joined = try await room.joinAsParticipant(room: "r1", display: "agent", pin: "1234")
        #expect(joined.id == "me-1")
        #expect(joined.privateID == 99)
        #expect(joined.publishers.map(\.display) == ["Alice"])
        #expect(joined.publishers.first?.streams.map(\.type) == ["audio", "video"])

        let event = try #require(try await events.next(within: .seconds(5)))
        #expect(event.pluginData.map(VideoRoomEvent.init(pluginData:)) == .unpublished(id: "pub-1"))

        await #expect(throws: JanusError.plugin(code: 426, reason: "No such room (missing)")) {
            try await room.joinAsParticipant(room: "missing", display: "agent")
        }
        await #expect(throws: JanusError.timeout(request: "message")) {
            try await room.handle.message(["request": "slow"], timeout: .milliseconds(200))
        }

        // Keepalives flow on their own every 50 ms.
        let deadline = ContinuousClock.now + .seconds(5)
        func keepalives() -> Int { server.received.filter { $0.contains("\"janus\":\"keepalive\"") }.count }
        while keepalives() < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(keepalives() >= 2)

        await connection.setToken("tok-2")
        try await room.handle.trickleCompleted()
        let closeStarted = ContinuousClock.now
        await room.close()
        #expect(ContinuousClock.now - closeStarted < .milliseconds(2500), "close path waited for the 3 s leave timeout")
        // A keepalive the client sent before its destroy may still be on the way when close()
        // returns; one socket keeps order, so only what the server got after the destroy counts.
        func isDestroy(_ message: String) -> Bool { message.contains("\"janus\":\"destroy\"") }
        try await pollUntil(timeout: .seconds(5), "the server to receive the destroy") { server.received.contains(where: isDestroy) }
        try await Task.sleep(for: .milliseconds(200))  // four keepalive periods for one that must not come
        let afterDestroy = server.received.drop { !isDestroy($0) }.dropFirst()
        #expect(!afterDestroy.contains { $0.contains("\"janus\":\"keepalive\"") }, "keepalive continued after destroy")

        let requests = try server.received.map { try JSONValue(parsing: $0) }
        let verbs = requests.compactMap { $0["janus"]?.stringValue }.filter { $0 != "keepalive" }
        #expect(verbs.first == "create")
        #expect(Array(verbs.suffix(4)) == ["trickle", "message", "detach", "destroy"])
        #expect(requests.allSatisfy { $0["token"] != nil }, "a request without token")
        let tokens = requests.compactMap { $0["token"]?.stringValue }
        #expect(tokens.firstIndex(of: "tok-2").map { Array(tokens[$0...]).allSatisfy { $0 == "tok-2" } } == true)
        #expect(Set(requests.compactMap { $0["transaction"]?.stringValue }).count == requests.count, "transaction ids reused")
        #expect(requests.first { $0["body"]?["request"] == "join" }?["body"]?["pin"] == "1234")
        #expect(await connection.malformedMessages == 1)
        #expect(await connection.isOpen == false)
    }

    @Test("a wrong token gives the typed 403; a dropped socket fails pending requests")
    func errorsAndDrop() async throws {
        let serverLoop = EventLoop(name: "test.fakejanus2")
        let clientLoop = EventLoop(name: "test.janusclient2")
        defer {
            clientLoop.shutdown()
            serverLoop.shutdown()
        }
        let server = try LocalWebSocketServer(loop: serverLoop, protocols: ["janus-protocol"], respond: Self.fakeJanus)
        defer { server.stop() }
        let connection = JanusConnection(url: server.url, loop: clientLoop, token: "expired")
        try await connection.connect()
        do {
            _ = try await JanusSession.create(on: connection)
            Issue.record("create with an expired token succeeded")
        } catch let error as JanusError {
            #expect(error.code == JanusError.Code.unauthorized)
        }

        await connection.setToken(nil)
        let session = try await JanusSession.create(on: connection)
        let room = try await VideoRoom.attach(to: session)
        let handle = room.handle
        let pending = Task { try await handle.message(["request": "slow"], timeout: .seconds(10)) }
        // Close from the server side while the request waits for its event.
        let deadline = ContinuousClock.now + .seconds(5)
        while !server.received.contains(where: { $0.contains("slow") }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let started = ContinuousClock.now
        server.closeClients(code: 1001, reason: "janus going away")
        await #expect(throws: JanusError.connectionClosed(code: 1001, reason: "janus going away")) {
            try await pending.value
        }
        await #expect(throws: JanusError.connectionClosed(code: 1001, reason: "janus going away")) {
            try await handle.message(["request": "exists", "room": "r1"])
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        // Close path against a dead server finishes quickly and never throws.
        let closeStarted = ContinuousClock.now
        await room.close()
        #expect(ContinuousClock.now - closeStarted < .seconds(2))
    }
}
