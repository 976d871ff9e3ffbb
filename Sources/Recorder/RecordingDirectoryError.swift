/// Why a recording directory cannot take files. The CLI maps it to exit code 5 ("output failed")
/// and prints ``description`` as the error line.
public enum RecordingDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `operation` (create, probe) failed on `path` with errno's text `reason`.
    case notWritable(path: String, operation: String, reason: String)
    /// The directory exists, and this recording must make a new one (``RecordingDirectory/Existing/refuse``).
    case alreadyExists(path: String)
    /// The directory holds a recording already (`file` is one of its files).
    case holdsRecording(path: String, file: String)
    /// A recording cannot be continued in it (``RecordingDirectory/Existing/continueRecording``).
    case cannotContinue(RecordingContinuationError)

    public var path: String {
        switch self {
        case .notWritable(let path, _, _), .alreadyExists(let path), .holdsRecording(let path, _): path
        case .cannotContinue(let error): error.path
        }
    }

    public var description: String {
        switch self {
        case .notWritable(let path, let operation, let reason):
            "cannot write recording to \(path): \(operation) failed: \(reason)"
        case .alreadyExists(let path):
            "\(path) already exists; a new recording needs a new directory"
        case .holdsRecording(let path, let file):
            "\(path) already holds a recording (\(file)); it would be overwritten"
        case .cannotContinue(let error):
            error.description
        }
    }
}
