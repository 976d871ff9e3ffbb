import AgentCore

/// A publisher in a VideoRoom roster, from `publishers` in `joined` and in events.
///
/// Janus 1.x (multistream) shape:
/// ```
/// { "id": "alice-1", "display": "Alice",
///   "streams": [ { "type": "audio", "mindex": 0, "mid": "0", "codec": "opus" },
///                { "type": "video", "mindex": 1, "mid": "1", "codec": "vp8" } ] }
/// ```
public struct VideoRoomPublisher: Sendable, Equatable {
    public struct Stream: Sendable, Equatable {
        /// "audio", "video" or "data".
        public let type: String
        public let mid: String?
        public let mindex: Int?
        public let codec: String?
        public let disabled: Bool
        public let description: String?
    }

    public let id: String
    public let display: String?
    public let streams: [Stream]

    /// Parses one roster entry; nil when it has no usable id (never traps).
    public init?(json: JSONValue) {
        guard let id = json["id"]?.idString else { return nil }
        self.id = id
        display = json["display"]?.stringValue
        streams = (json["streams"]?.arrayValue ?? []).compactMap { stream in
            guard let type = stream["type"]?.stringValue else { return nil }
            return Stream(
                type: type, mid: stream["mid"]?.stringValue,
                mindex: stream["mindex"]?.integerValue.map { Int(clamping: $0) },
                codec: stream["codec"]?.stringValue, disabled: stream["disabled"]?.boolValue ?? false,
                description: stream["description"]?.stringValue)
        }
    }

    public init(id: String, display: String?, streams: [Stream]) {
        self.id = id
        self.display = display
        self.streams = streams
    }

    /// Parses a `publishers` array, skipping malformed entries.
    static func list(_ json: JSONValue?) -> [VideoRoomPublisher] {
        (json?.arrayValue ?? []).compactMap(VideoRoomPublisher.init(json:))
    }
}
