import Agent
import Foundation
import Synchronization

/// A scripted Janus with empty VideoRooms, for the engine's tests without the lab: session,
/// handles, exists/create/join/leave, keepalive. Like Janus with `token_auth`, it answers 403 to
/// a request whose signed token has expired, or whose token is "refused".
enum FakeJanusRoom {
    static let sessionID: Int64 = 7_001
    private static let handles = HandleCounter()

    static func respond(_ text: String) -> [String] {
        guard let request = try? JSONValue(parsing: text), let verb = request["janus"]?.stringValue,
            let transaction = request["transaction"]?.stringValue
        else { return [] }
        let tx = JSONValue.string(transaction)
        let session = JSONValue.integer(sessionID)
        func reply(_ object: [String: JSONValue]) -> String { JSONValue.object(object).serialized() }
        func plugin(_ data: JSONValue) -> JSONValue { ["plugin": "janus.plugin.videoroom", "data": data] }
        if let token = request["token"]?.stringValue,
            token == "refused" || (JanusToken(token).expiry.map { $0 < Date() } ?? false)
        {
            return [reply(["janus": "error", "transaction": tx, "error": ["code": 403, "reason": "Unauthorized request (wrong or missing secret/token)"]])]
        }
        switch verb {
        case "create":
            return [reply(["janus": "success", "transaction": tx, "data": ["id": session]])]
        case "attach":
            return [reply(["janus": "success", "transaction": tx, "session_id": session, "data": ["id": .integer(handles.next())]])]
        case "keepalive":
            return [reply(["janus": "ack", "transaction": tx, "session_id": session])]
        case "detach", "destroy":
            return [reply(["janus": "success", "transaction": tx, "session_id": session])]
        case "message":
            let body = request["body"]
            let sender: JSONValue = request["handle_id"] ?? .integer(0)
            let ack = reply(["janus": "ack", "transaction": tx, "session_id": session])
            switch body?["request"]?.stringValue {
            case "exists":
                return [reply(["janus": "success", "transaction": tx, "session_id": session, "sender": sender,
                               "plugindata": plugin(["videoroom": "success", "room": body?["room"] ?? nil, "exists": true])])]
            case "join":
                return [ack, reply(["janus": "event", "transaction": tx, "session_id": session, "sender": sender,
                                    "plugindata": plugin(["videoroom": "joined", "room": body?["room"] ?? nil,
                                                          "id": .string("me-\(sender.integerValue ?? 0)"), "private_id": 1, "publishers": []])])]
            case "leave":
                return [ack, reply(["janus": "event", "transaction": tx, "session_id": session, "sender": sender,
                                    "plugindata": plugin(["videoroom": "event", "leaving": "ok"])])]
            default:
                return []
            }
        default:
            return []
        }
    }

    /// Requests of one verb (and, for plugin messages, one VideoRoom request) the server got.
    static func requests(_ received: [String], verb: String, request: String? = nil) -> [JSONValue] {
        received.compactMap { try? JSONValue(parsing: $0) }.filter { message in
            message["janus"]?.stringValue == verb && (request == nil || message["body"]?["request"]?.stringValue == request)
        }
    }
}

private final class HandleCounter: Sendable {
    private let value = Atomic<Int64>(100)
    func next() -> Int64 { value.add(1, ordering: .relaxed).newValue }
}
