import AgentCore

/// One stream of a multistream subscription, as Janus describes it in `attached` and `updated`:
///
///     { "type": "audio", "active": true, "mindex": 0, "mid": "0", "ready": false, "send": true,
///       "feed_id": "alice-1", "feed_display": "Alice", "feed_mid": "0", "codec": "opus" }
///
/// The `mid` is the subscriber's own; `feed_id` says whose media it carries.
public struct VideoRoomSubscriberStream: Sendable, Equatable {
    public let mid: String
    /// "audio", "video" or "data".
    public let type: String
    public let active: Bool
    public let feedID: String?
    public let feedDisplay: String?
    public let codec: String?

    public init?(json: JSONValue) {
        guard let mid = json["mid"]?.idString, let type = json["type"]?.stringValue else { return nil }
        self.mid = mid
        self.type = type
        active = json["active"]?.boolValue ?? true
        feedID = json["feed_id"]?.idString
        feedDisplay = json["feed_display"]?.stringValue
        codec = json["codec"]?.stringValue
    }

    static func list(_ json: JSONValue?) -> [VideoRoomSubscriberStream] {
        (json?.arrayValue ?? []).compactMap(VideoRoomSubscriberStream.init(json:))
    }
}
