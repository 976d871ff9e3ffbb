/// The EBML DocType a Matroska file declares (RFC 9559 §4.1, §26): "webm" for the WebM subset
/// (VP8, VP9, AV1, Opus, Vorbis only: https://www.webmproject.org/docs/container/), "matroska"
/// for anything else, such as H.264. A reader may refuse a "webm" file that holds another codec
/// (browsers do), so the writer picks the type from its tracks.
public enum MatroskaDocType: String, Sendable {
    case webm
    case matroska

    /// The codecs the WebM subset allows, by Matroska CodecID.
    static let webmCodecIDs: Set<String> = ["V_VP8", "V_VP9", "V_AV1", "A_OPUS", "A_VORBIS"]

    /// "webm" when every track is in the WebM subset, else "matroska".
    public init(tracks: [WebMTrack]) {
        self = tracks.allSatisfy { Self.webmCodecIDs.contains($0.codecID) } ? .webm : .matroska
    }

    /// The file name extension, also the manifest's `format` for such a file.
    public var fileExtension: String {
        switch self {
        case .webm: "webm"
        case .matroska: "mkv"
        }
    }
}
