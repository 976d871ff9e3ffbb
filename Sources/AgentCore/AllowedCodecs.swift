/// The codecs a room lets publishers send, in the room's order of preference, by their lowercase
/// ``MediaCodec/name`` (`opus`, `vp8`; and names of codecs we do not send, such as `pcmu` or
/// `h264`, as the platform lists them): what ``AgentError/codecRefused(refused:allowed:)`` says a
/// room would have taken. A neutral value, so that the room API's error carries no platform
/// type; each adapter reads it from its platform (Janus: `AllowedCodecs+VideoRoom.swift`).
public struct AllowedCodecs: Sendable, Equatable, CustomStringConvertible {
    /// Lower-case codec names (`opus`, `g722`, `pcmu`, `pcma`, `isac32`, `isac16`, `multiopus`, `l16`).
    public var audio: [String]
    /// Lower-case codec names (`vp8`, `vp9`, `h264`, `av1`, `h265`).
    public var video: [String]

    public init(audio: [String], video: [String]) {
        self.audio = audio
        self.video = video
    }

    /// Whether a publisher may send `codec` (case-insensitive) of that kind.
    public func allows(audio codec: String) -> Bool { audio.contains(codec.lowercased()) }
    public func allows(video codec: String) -> Bool { video.contains(codec.lowercased()) }

    /// Whether a publisher may send `codec`, listed by its lowercase ``MediaCodec/name``.
    public func allows(_ codec: MediaCodec) -> Bool {
        switch codec.kind {
        case .audio: allows(audio: codec.name)
        case .video: allows(video: codec.name)
        }
    }

    /// `audio opus,pcmu; video vp9`, for error messages.
    public var description: String {
        "audio \(audio.isEmpty ? "none" : audio.joined(separator: ",")); video \(video.isEmpty ? "none" : video.joined(separator: ","))"
    }
}
