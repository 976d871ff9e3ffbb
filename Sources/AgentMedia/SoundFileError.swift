/// Why a sound file could not be opened, read, written or closed. Bad files never trap: libsndfile
/// rejects them and its own message ends up here.
public enum SoundFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libsndfile failed in `operation` on `path` with its error `code` and `message`.
    case library(operation: String, path: String, code: Int32, message: String)
    /// The file was used after ``SoundFileWriter/close()`` or ``SoundFileReader/close()``.
    case closed(path: String)
    /// The wrapper refused the arguments before calling libsndfile.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .library(let operation, let path, let code, let message):
            "\(operation) \(path) failed: \(message) (\(code))"
        case .closed(let path): "\(path) is closed"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        }
    }
}
