import Foundation

/// The codecs a VideoRoom lets publishers send, in the room's order of preference, as its
/// entry in the VideoRoom `list` reply names them: `"audiocodec": "opus,pcmu"`, `"videocodec": "vp8,vp9,h264"`.
public struct VideoRoomCodecs: Sendable, Equatable, CustomStringConvertible {
    /// Lower-case codec names (`opus`, `g722`, `pcmu`, `pcma`, `isac32`, `isac16`, `multiopus`, `l16`).
    public var audio: [String]
    /// Lower-case codec names (`vp8`, `vp9`, `h264`, `av1`, `h265`).
    public var video: [String]

    public init(audio: [String], video: [String]) {
        self.audio = audio
        self.video = video
    }

    /// Parses one entry of the `list` reply; nil when it names neither list.
    public init?(listEntry json: JSONValue) {
        let audio = json["audiocodec"]?.stringValue
        let video = json["videocodec"]?.stringValue
        guard audio != nil || video != nil else { return nil }
        self.init(audio: Self.names(audio), video: Self.names(video))
    }

    /// Whether a publisher may send `codec` (case-insensitive) of that kind.
    public func allows(audio codec: String) -> Bool { audio.contains(codec.lowercased()) }
    public func allows(video codec: String) -> Bool { video.contains(codec.lowercased()) }

    /// Whether a publisher may send `codec`: Janus lists codecs by their lowercase ``MediaCodec/name``.
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

    private static func names(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }
}
