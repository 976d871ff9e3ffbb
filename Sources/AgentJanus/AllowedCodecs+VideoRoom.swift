import AgentCore
import Foundation

/// A room's allowed codecs as a VideoRoom names them in its entry of the `list` reply:
/// `"audiocodec": "opus,pcmu"`, `"videocodec": "vp8,vp9,h264"`.
extension AllowedCodecs {
    /// Parses one entry of the `list` reply; nil when it names neither list.
    public init?(listEntry json: JSONValue) {
        let audio = json["audiocodec"]?.stringValue
        let video = json["videocodec"]?.stringValue
        guard audio != nil || video != nil else { return nil }
        self.init(audio: Self.names(audio), video: Self.names(video))
    }

    private static func names(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }
}
