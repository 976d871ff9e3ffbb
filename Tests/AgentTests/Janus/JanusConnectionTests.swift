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

    /// Runs `body` against a fresh fake Janus and a client connection to it (not yet connected),
    /// each on a loop of its own; stops the server and both loops on every path.
    static func withFakeJanus(
        token: String? = nil, requestTimeout: Duration = .seconds(10),
        _ body: (LocalWebSocketServer, JanusConnection) async throws -> Void
    ) async throws {
        let serverLoop = EventLoop(name: "test.fakejanus")
        let clientLoop = EventLoop(name: "test.janusclient")
        defer {
            clientLoop.shutdown()
            serverLoop.shutdown()
        }
        let server = try LocalWebSocketServer(loop: serverLoop, protocols: ["janus-protocol"], respond: fakeJanus)
        defer { server.stop() }
        try await body(server, JanusConnection(url: server.url, loop: clientLoop, token: token, requestTimeout: requestTimeout))
    }

    @Test("session, handle, join with ack then event, routed events, token on every request")
    func fullFlow() async throws {
        try await Self.withFakeJanus(token: "tok-1", requestTimeout: .seconds(5)) { server, connection in
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
    }

    @Test("a wrong token gives the typed 403; a dropped socket fails pending requests")
    func errorsAndDrop() async throws {
        try await Self.withFakeJanus(token: "expired") { server, connection in
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

    @Test("destroy waits out a keepalive in flight: none reaches the server after the destroy")
    func destroyOrdersAfterKeepalive() async throws {
        try await Self.withFakeJanus(requestTimeout: .seconds(5)) { server, connection in
            try await connection.connect()
            func verb(_ message: String) -> String? { (try? JSONValue(parsing: message))?["janus"]?.stringValue }
            var sessions = 0
            var keepalivesBeforeDestroy = 0
            for round in 0..<40 {
                // A 1 ms period keeps a keepalive on its way to the actor most of the time.
                let session = try await JanusSession.create(on: connection, keepaliveInterval: .milliseconds(1))
                let mark = server.received.count
                try await Task.sleep(for: .milliseconds(Int64(round % 5)))
                await session.destroy()
                sessions += 1
                try await pollUntil(timeout: .seconds(5), "destroy \(round) to arrive") {
                    server.received.dropFirst(mark).contains { verb($0) == "destroy" }
                }
                let verbs = server.received.dropFirst(mark).compactMap(verb)
                keepalivesBeforeDestroy += verbs.prefix { $0 != "destroy" }.filter { $0 == "keepalive" }.count
                // Nothing of this session may follow its destroy (the next create comes later).
                let afterDestroy = verbs.drop { $0 != "destroy" }.dropFirst()
                #expect(!afterDestroy.contains("keepalive"), "round \(round): keepalive after destroy")
            }
            #expect(sessions == 40)
            // The race was there to lose: keepalives did flow before the destroys.
            #expect(keepalivesBeforeDestroy > 0)
            try await Task.sleep(for: .milliseconds(50))  // fifty keepalive periods for one that must not come
            let tail = server.received.compactMap(verb).drop { $0 != "destroy" }
            #expect(Array(tail.reversed().prefix { $0 != "destroy" }).isEmpty, "a keepalive after the last destroy")
            await connection.close()
        }
    }

    @Test("a cancellable request stops waiting when its task is cancelled; a plain one does not send twice")
    func cancellableRequest() async throws {
        try await Self.withFakeJanus(requestTimeout: .seconds(30)) { server, connection in
            try await connection.connect()
            let session = try await JanusSession.create(on: connection, keepaliveInterval: .seconds(60))
            let room = try await VideoRoom.attach(to: session)
            let handleID = room.handle.id
            // "slow" is acked but never answered, so only cancellation can end the wait.
            let waiting = Task {
                try await connection.request(
                    .message, session: session.id, handle: handleID, fields: ["body": ["request": "slow"]], cancellable: true)
            }
            try await pollUntil(timeout: .seconds(5), "the slow request to arrive") {
                server.received.contains { $0.contains("slow") }
            }
            let started = ContinuousClock.now
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(ContinuousClock.now - started < .seconds(5), "cancel waited for the 30 s request timeout")
            // Already cancelled: a cancellable request is not sent; a plain one (teardown) still is.
            let before = server.received.count
            let refused = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await connection.request(.keepalive, session: session.id, cancellable: true)
            }
            await #expect(throws: CancellationError.self) { try await refused.value }
            let plain = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await connection.request(.keepalive, session: session.id)
            }
            _ = try await plain.value
            let sent = server.received.dropFirst(before).filter { $0.contains("\"keepalive\"") }
            #expect(sent.count == 1)
            await connection.close()
        }
    }
}
