import AgentCore

/// The answer to a VideoRoom `join` as publisher:
/// `{ "videoroom": "joined", "room", "description", "id", "private_id", "publishers": [...] }`.
public struct VideoRoomJoined: Sendable, Equatable {
    public let room: String
    /// Our own participant id.
    public let id: String
    /// Used to tie subscriptions to this participant (`private_id` in subscribe requests).
    public let privateID: Int64?
    public let description: String?
    /// Everyone publishing when we joined.
    public let publishers: [VideoRoomPublisher]

    init(json: JSONValue) throws {
        guard json["videoroom"]?.stringValue == "joined" else {
            throw JanusError.malformed("expected videoroom \"joined\", got \(json["videoroom"]?.stringValue ?? "nothing")")
        }
        guard let room = json["room"]?.idString, let id = json["id"]?.idString else {
            throw JanusError.malformed("joined without room or id")
        }
        self.room = room
        self.id = id
        privateID = json["private_id"]?.integerValue
        description = json["description"]?.stringValue
        publishers = VideoRoomPublisher.list(json["publishers"])
    }
}
