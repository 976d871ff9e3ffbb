/// Why ``MediaFile`` would not open a path for a player.
public enum MediaFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// open(2) or fstat(2) failed; `reason` is errno's text.
    case cannotOpen(path: String, reason: String)
    /// The path (after symlinks) is a FIFO, a device, a directory or a socket: `kind` says which.
    case notRegularFile(path: String, kind: String)

    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .notRegularFile(let path, _): path
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .notRegularFile(let path, let kind): "\(path) is \(kind), not a regular file"
        }
    }
}
