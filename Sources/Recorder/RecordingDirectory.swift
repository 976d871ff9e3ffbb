import Foundation

/// Where a recording's files go, and the check that they can go there before joining a room.
///
/// `--out DIR` is used as given (created if missing). Without it the directory is
/// `<base>/<room>-<UTC yyyyMMdd'T'HHmmss'Z'>`, base `./recordings` (ARCHITECTURE.md), e.g.
/// `./recordings/demo-20261130T104207Z`. The room goes through the same sanitizer as names, so a
/// room called `../x` cannot climb out of the base.
public struct RecordingDirectory: Sendable, Equatable {
    public static let defaultBase = "./recordings"

    public let path: String

    /// `--out DIR`: the path exactly as given.
    public init(path: String) {
        self.path = path
    }

    /// The default location for a recording of `room` started at `startedAt`.
    public init(room: String, startedAt: Date, base: String = defaultBase) {
        path = (base as NSString).appendingPathComponent(Self.defaultName(room: room, startedAt: startedAt))
    }

    /// `<room>-<yyyyMMdd'T'HHmmss'Z'>` in UTC, the room sanitized to `[A-Za-z0-9_-]`.
    public static func defaultName(room: String, startedAt: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: startedAt)
        let stamp = String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                           parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return "\(NameAllocator.sanitize(room, fallback: "room"))-\(stamp)"
    }

    /// The path of `file` inside the directory.
    public func filePath(_ file: String) -> String {
        (path as NSString).appendingPathComponent(file)
    }

    /// Creates the directory (and missing parents), then creates, writes and removes a probe file,
    /// so a read-only disk, a missing permission or a path under a regular file fails before the
    /// agent joins a room rather than after.
    public func checkWritable() throws(RecordingDirectoryError) {
        try createDirectories()
        let probe = filePath(".agentd-write-probe-\(getpid())")
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("create probe file", probe) }
        let byte: [UInt8] = [0x0A]
        let written = byte.withUnsafeBytes { write(descriptor, $0.baseAddress, 1) }
        let writeError = written == 1 ? nil : failure("write probe file", probe)
        _ = close(descriptor)
        let unlinkError = unlink(probe) == 0 ? nil : failure("remove probe file", probe)
        if let error = writeError ?? unlinkError { throw error }
    }

    /// mkdir -p: each missing component in turn, so the error names the component that failed.
    private func createDirectories() throws(RecordingDirectoryError) {
        let components = (path as NSString).pathComponents
        var current = ""
        for component in components {
            current = current.isEmpty ? component : (current as NSString).appendingPathComponent(component)
            if mkdir(current, 0o755) == 0 { continue }
            let code = errno
            var status = stat()
            if code == EEXIST, stat(current, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFDIR { continue }
                throw .notWritable(path: path, operation: "create directory \(current)",
                                   reason: String(cString: strerror(ENOTDIR)))
            }
            if code == EEXIST || code == EACCES && isDirectory(current) { continue }
            throw .notWritable(path: path, operation: "create directory \(current)", reason: String(cString: strerror(code)))
        }
    }

    private func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private func failure(_ operation: String, _ file: String) -> RecordingDirectoryError {
        .notWritable(path: path, operation: "\(operation) \(file)", reason: String(cString: strerror(errno)))
    }
}
