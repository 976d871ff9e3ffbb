/// Why a manifest.json could not be read back (``RecordingManifestReader``). The file may come
/// from anywhere (a directory handed to `--continue`, a recorder killed mid-write), so every
/// way it can be wrong is a case here, never a trap.
public enum ManifestReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no manifest.json.
    case missing
    /// manifest.json is a symbolic link, a directory, a FIFO or a device, not a file.
    case notARegularFile
    /// open or read failed with errno's text.
    case unreadable(reason: String)
    /// Larger than ``RecordingManifestReader/maximumBytes``.
    case tooLarge(limit: Int)
    /// Not JSON text (or nested deeper than a manifest ever is).
    case notJSON(reason: String)
    /// JSON, but not a manifest: a contract key missing or of the wrong type, a bad date.
    case badManifest(reason: String)
    /// A manifest of another version than ``RecordingManifest/currentVersion``.
    case unsupportedVersion(Int)

    public var description: String {
        switch self {
        case .missing: "there is no manifest.json"
        case .notARegularFile: "manifest.json is not a regular file"
        case .unreadable(let reason): "manifest.json cannot be read: \(reason)"
        case .tooLarge(let limit): "manifest.json is larger than \(limit >> 20) MiB"
        case .notJSON(let reason): "manifest.json is not JSON: \(reason)"
        case .badManifest(let reason): "manifest.json is not a recording manifest: \(reason)"
        case .unsupportedVersion(let version):
            "manifest.json is version \(version), this agentd reads version \(RecordingManifest.currentVersion)"
        }
    }
}
