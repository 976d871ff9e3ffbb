/// Which files a recording writes: `--formats webm,wav,ogg,mix,data,composite,transcript` (ARCHITECTURE.md).
///
/// | name | files                                   |
/// |------|-----------------------------------------|
/// | webm | `<name>.webm` per participant, `<name>.mkv` (Matroska) when their video is H.264 |
/// | wav  | `<name>.wav` per participant, timeline  |
/// | ogg  | `<name>.opus` per participant (Opus)    |
/// | mix  | `mix.wav`, everybody mixed              |
/// | data | `data.jsonl`, data-channel messages     |
/// | composite | `room.webm`: one VP8 picture of the room (tiles, ``CompositeSettings``) and the mix as Opus |
/// | transcript | `transcript.jsonl` and `captions.vtt`: what each participant said (``RoomTranscriber``) |
///
/// Names are case-insensitive, spaces around commas are ignored and so are repeats; `opus` is
/// accepted for `ogg` and `mkv` for `webm`, since those are the files' extensions. The default
/// is webm,wav,data.
public struct RecordingFormats: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable {
        case webm, wav, ogg, mix, data, composite, transcript
    }

    public static let `default` = RecordingFormats([.webm, .wav, .data])

    public private(set) var formats: Set<Format>

    public init(_ formats: Set<Format>) {
        self.formats = formats
    }

    /// Parses a comma-separated list.
    public init(parsing text: String) throws(RecordingFormatsError) {
        var formats: Set<Format> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingWhitespace().lowercased()
            if name.isEmpty { continue }
            guard let format = Format(rawValue: Self.aliases[name] ?? name) else {
                throw .unknownFormat(String(item.trimmingWhitespace()))
            }
            formats.insert(format)
        }
        guard !formats.isEmpty else { throw .empty }
        self.formats = formats
    }

    /// Other names of formats: their files' extensions.
    static let aliases = ["opus": "ogg", "mkv": "webm"]

    public func contains(_ format: Format) -> Bool {
        formats.contains(format)
    }

    /// The formats in canonical order, as the manifest lists them.
    public var names: [String] {
        Format.allCases.filter(formats.contains).map(\.rawValue)
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
