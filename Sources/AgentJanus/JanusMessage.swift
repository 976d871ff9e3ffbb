import AgentCore

/// One JSON message from Janus, decoded into the fields that route it.
///
/// Janus 1.x JSON API (janus.transport.websockets, subprotocol "janus-protocol"):
/// ```
/// { "janus": "success" | "error" | "ack" | "event" | "webrtcup" | "media" | "hangup" |
///            "slowlink" | "detached" | "timeout" | "trickle" | "server_info" | ...,
///   "transaction": "<echo of the request's>",     (absent on unsolicited events)
///   "session_id": <session>, "sender": <handle>,   (events name the handle in "sender")
///   "data": { "id": <new session or handle id> },  (create / attach success)
///   "error": { "code": 458, "reason": "..." },     (janus == "error")
///   "plugindata": { "plugin": "janus.plugin.videoroom", "data": { ... } },
///   "jsep": { "type": "offer" | "answer", "sdp": "..." } }
/// ```
public struct JanusMessage: Sendable, Equatable {
    /// The `janus` field: what kind of message this is.
    public let janus: String
    public let transaction: String?
    public let sessionID: Int64?
    /// The handle an event is for.
    public let sender: Int64?
    public let data: JSONValue?
    /// `plugindata.plugin`.
    public let plugin: String?
    /// `plugindata.data`: the plugin's own reply or event.
    public let pluginData: JSONValue?
    public let jsep: JSONValue?
    /// The core error of a `"janus": "error"` message.
    public let error: JanusError?
    /// The whole message, for fields not decoded above.
    public let json: JSONValue

    /// Decodes a message. Throws ``JanusError/malformed(_:)`` for anything that is not a JSON
    /// object with a string `janus` field; tolerates unknown and missing optional fields.
    public init(parsing text: String) throws {
        let json: JSONValue
        do { json = try JSONValue(parsing: text) } catch {
            throw JanusError.malformed("not JSON: \(text.prefix(120))")
        }
        try self.init(json: json)
    }

    public init(json: JSONValue) throws {
        guard json.objectValue != nil else { throw JanusError.malformed("not a JSON object") }
        guard let janus = json["janus"]?.stringValue else { throw JanusError.malformed("no \"janus\" field") }
        self.janus = janus
        self.json = json
        transaction = json["transaction"]?.stringValue
        sessionID = json["session_id"]?.integerValue
        sender = json["sender"]?.integerValue
        data = json["data"]
        plugin = json["plugindata"]?["plugin"]?.stringValue
        pluginData = json["plugindata"]?["data"]
        jsep = json["jsep"]
        if janus == "error" {
            let code = json["error"]?["code"]?.integerValue.map { Int(clamping: $0) } ?? 0
            let reason = json["error"]?["reason"]?.stringValue ?? "unknown error"
            error = .server(code: code, reason: reason)
        } else {
            error = nil
        }
    }

    /// The plugin error carried in `plugindata.data` (`error_code` + `error`), if any.
    public var pluginError: JanusError? {
        guard let pluginData else { return nil }
        if let code = pluginData["error_code"]?.integerValue {
            return .plugin(code: Int(clamping: code), reason: pluginData["error"]?.stringValue ?? "")
        }
        if let reason = pluginData["error"]?.stringValue {
            return .plugin(code: 0, reason: reason)
        }
        return nil
    }
}
