/// Why a recording cannot be continued in a directory (``RecordingContinuation``). Nothing in
/// the directory has been touched when one of these is thrown. The CLI exits 5 (output failed),
/// as for any `--out` it cannot record into; the API answers 409.
public enum RecordingContinuationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// manifest.json could not be read as a version 1 manifest.
    case manifest(path: String, ManifestReadError)
    /// The manifest is a recording of another room.
    case otherRoom(path: String, room: String, expected: String)
    /// The directory holds files (`file` is one) but no manifest.json: not a recording this
    /// agentd can continue, and nothing to overwrite.
    case noManifest(path: String, file: String)
    /// The manifest's `started_at` lies after now, or so long ago (more than about 265 days)
    /// that a timeline position would overflow.
    case timelineOutOfRange(path: String, startedAt: String)

    public var path: String {
        switch self {
        case .manifest(let path, _), .otherRoom(let path, _, _), .noManifest(let path, _), .timelineOutOfRange(let path, _):
            path
        }
    }

    public var description: String {
        switch self {
        case .manifest(let path, let error):
            "cannot continue the recording in \(path): \(error)"
        case .otherRoom(let path, let room, let expected):
            "cannot continue the recording in \(path): it records room \(Self.shown(room)), not \(Self.shown(expected))"
        case .noManifest(let path, let file):
            "cannot continue a recording in \(path): it holds files (\(Self.shown(file))) but no manifest.json"
        case .timelineOutOfRange(let path, let startedAt):
            "cannot continue the recording in \(path): its started_at \(startedAt) is in the future or too long ago"
        }
    }

    /// Text from the directory, quoted on one line and cut short: it may be anything.
    static func shown(_ text: String) -> String {
        let cut = text.count > 64 ? String(text.prefix(64)) + "…" : text
        let printable = cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
        return "'\(printable)'"
    }
}
