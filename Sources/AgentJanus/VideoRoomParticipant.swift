import AgentCore

/// One entry of a VideoRoom `listparticipants` answer:
/// `{ "id": "...", "display": "...", "publisher": true, "talking": false }`.
public struct VideoRoomParticipant: Sendable, Equatable {
    public let id: String
    public let display: String?
    /// True when the participant is currently publishing media.
    public let publisher: Bool

    public init?(json: JSONValue) {
        guard let id = json["id"]?.idString else { return nil }
        self.id = id
        display = json["display"]?.stringValue
        publisher = json["publisher"]?.boolValue ?? false
    }
}
