/// Why a capture could not be written or read.
public enum CaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The capture's files cannot be made (they exist already, or the directory is not writable).
    case cannotCreate(String)
    /// `capture.json` is missing, unreadable, too large, or says something impossible.
    case invalidDescription(String)
    /// `capture.rtpdump` is missing, too large or malformed.
    case invalidDump(String)

    public var description: String {
        switch self {
        case .cannotCreate(let reason): "cannot create the capture: \(reason)"
        case .invalidDescription(let reason): "the capture's description (capture.json) is unusable: \(reason)"
        case .invalidDump(let reason): "the capture's packets (capture.rtpdump) are unusable: \(reason)"
        }
    }
}
