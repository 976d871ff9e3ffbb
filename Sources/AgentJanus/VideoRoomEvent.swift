import AgentCore

/// An unsolicited VideoRoom event on a participant handle (`"videoroom": "event"` and friends).
public enum VideoRoomEvent: Sendable, Equatable {
    /// New or changed publishers: `{"videoroom":"event","publishers":[...]}`.
    case publishers([VideoRoomPublisher])
    /// A publisher stopped publishing: `{"videoroom":"event","unpublished":"<id>"}`.
    case unpublished(id: String)
    /// A participant left: `{"videoroom":"event","leaving":"<id>","reason"?}`.
    case leaving(id: String, reason: String?)
    /// A non-publishing participant joined (rooms with `notify_joining`):
    /// `{"videoroom":"event","joining":{"id","display"}}`.
    case joining(id: String, display: String?)
    /// Talk detection: `{"videoroom":"talking"|"stopped-talking","id"}`.
    case talking(id: String, isTalking: Bool)
    /// The room was destroyed: `{"videoroom":"destroyed","room"}`.
    case roomDestroyed(room: String)
    /// We were kicked, or another message this type does not model.
    case other(JSONValue)

    /// Interprets the plugin data of one event. `unpublished: "ok"` and `leaving: "ok"` are the
    /// answers to our own unpublish/leave and come back as `.other`.
    public init(pluginData data: JSONValue) {
        let kind = data["videoroom"]?.stringValue
        switch kind {
        case "talking", "stopped-talking":
            if let id = data["id"]?.idString {
                self = .talking(id: id, isTalking: kind == "talking")
                return
            }
        case "destroyed":
            if let room = data["room"]?.idString {
                self = .roomDestroyed(room: room)
                return
            }
        case "event":
            if data["publishers"] != nil {
                self = .publishers(VideoRoomPublisher.list(data["publishers"]))
                return
            }
            if let id = data["unpublished"]?.idString, id != "ok" {
                self = .unpublished(id: id)
                return
            }
            if let id = data["leaving"]?.idString, id != "ok" {
                self = .leaving(id: id, reason: data["reason"]?.stringValue)
                return
            }
            if let joining = data["joining"], let id = joining["id"]?.idString {
                self = .joining(id: id, display: joining["display"]?.stringValue)
                return
            }
        default:
            break
        }
        self = .other(data)
    }
}
