/// Why a recording could not be written. The CLI maps every case to exit code 5 ("output
/// failed") and prints ``description`` as its error line.
public enum RoomRecorderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory could not be created or written (see ``RecordingDirectoryError``).
    case directory(String)
    /// manifest.json could not be written.
    case manifest(String)
    /// A media or data file failed mid-recording (disk full); the others went on.
    case file(String)
    /// The directory's recording cannot be continued (``RecordingContinuation``), or another
    /// recorder is writing it; nothing in it was touched.
    case continuation(RecordingContinuationError)

    public var description: String {
        switch self {
        case .directory(let reason): "cannot create recording directory: \(reason)"
        case .manifest(let reason): "cannot write manifest.json: \(reason)"
        case .file(let reason): "recording file failed: \(reason)"
        case .continuation(let error): error.description
        }
    }
}
