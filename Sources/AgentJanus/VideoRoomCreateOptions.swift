import AgentCore

/// Settings for a VideoRoom `create` request. Defaults suit the agent: Opus audio, VP8/VP9/H.264
/// video, a temporary (non-permanent) room.
public struct VideoRoomCreateOptions: Sendable, Equatable {
    public var description: String?
    /// Maximum number of concurrent publishers.
    public var publishers: Int = 6
    public var audiocodec: String = "opus"
    public var videocodec: String = "vp8,vp9,h264"
    /// Pin required to join.
    public var pin: String?
    /// Secret required to edit or destroy the room.
    public var secret: String?
    public var isPrivate: Bool = false
    /// Notify participants when non-publishers join.
    public var notifyJoining: Bool = false

    public init() {}

    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "publishers": .integer(Int64(publishers)), "audiocodec": .string(audiocodec),
            "videocodec": .string(videocodec), "is_private": .bool(isPrivate), "permanent": false,
            "notify_joining": .bool(notifyJoining),
        ]
        if let description { fields["description"] = .string(description) }
        if let pin { fields["pin"] = .string(pin) }
        if let secret { fields["secret"] = .string(secret) }
        return fields
    }
}
