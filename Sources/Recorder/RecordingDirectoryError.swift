/// Why a recording directory cannot take files. The CLI maps it to exit code 5 ("output failed")
/// and prints ``description`` as the error line.
public enum RecordingDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `operation` (create, probe) failed on `path` with errno's text `reason`.
    case notWritable(path: String, operation: String, reason: String)

    public var path: String {
        switch self {
        case .notWritable(let path, _, _): path
        }
    }

    public var description: String {
        switch self {
        case .notWritable(let path, let operation, let reason):
            "cannot write recording to \(path): \(operation) failed: \(reason)"
        }
    }
}
