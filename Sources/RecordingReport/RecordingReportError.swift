/// Why a recording directory could not be reported on.
public enum RecordingReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path is missing or not a directory.
    case notADirectory(String)
    /// The directory has no manifest.json: not a recording directory.
    case noManifest(String)
    /// manifest.json is there but cannot be read (permissions, not a regular file).
    case manifestUnreadable(path: String, reason: String)
    /// manifest.json is larger than ``RecordingReportBuilder/manifestLimit``.
    case manifestTooLarge(path: String, limit: Int)
    /// manifest.json is not a manifest: bad JSON, a missing key, a newer version.
    case badManifest(path: String, reason: String)
    /// report.json or report.html could not be written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .notADirectory(let path): "\(path) is not a directory"
        case .noManifest(let path): "\(path) has no manifest.json, so it is not a recording directory"
        case .manifestUnreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .manifestTooLarge(let path, let limit): "\(path) is larger than \(limit >> 20) MiB"
        case .badManifest(let path, let reason): "\(path) is not a recording manifest: \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
