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

    /// What went wrong, without the path: for an error type that names the path itself.
    public var reason: String {
        switch self {
        case .cannotOpen(_, let reason): reason
        case .notRegularFile(_, let kind): "it is \(kind), not a regular file"
        }
    }

    /// The message the file readers put in their own `io` errors (which name the path): "cannot
    /// open for reading" as they always said, or why the file is refused.
    public var readerMessage: String {
        switch self {
        case .cannotOpen: "cannot open for reading"
        case .notRegularFile: reason
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
        case .notRegularFile(let path, let kind): "\(path) is \(kind), not a regular file"
        }
    }
}
