import Foundation

/// Where a recording's files go, and the check that they can go there before joining a room.
///
/// `--out DIR` is used as given (created if missing). Without it the directory is
/// `<base>/<room>-<UTC yyyyMMdd'T'HHmmss'Z'>`, base `./recordings` (ARCHITECTURE.md), e.g.
/// `./recordings/demo-20261130T104207Z`. The room goes through the same sanitizer as names, so a
/// room called `../x` cannot climb out of the base.
public struct RecordingDirectory: Sendable, Equatable {
    /// What ``prepare(existing:)`` makes of a directory that is already there.
    public enum Existing: Sendable, Equatable {
        /// It must not exist: it is created here, atomically (mkdir), so two recordings can
        /// never share it (the daemon's jobs).
        case refuse
        /// It may exist if it holds no recording (`agentd record --out` into a directory the
        /// user made); one with a manifest or a recording's file is refused.
        case refuseRecording
        /// Anything goes; a recording's files of the same names are replaced (`--overwrite`).
        case overwrite
        /// A recording in it is continued as its next part (`--continue`, a worker's reclaimed
        /// job): nothing in it is replaced (``RecordingContinuation``, which also refuses a
        /// directory it cannot continue before anything is written); a missing or empty one
        /// gets a new recording.
        case continueRecording
    }

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
    /// agent joins a room rather than after. When it fails, the directories it created are
    /// removed again (only those: an existing parent is never touched).
    public func checkWritable() throws(RecordingDirectoryError) {
        _ = try prepare(existing: .overwrite)
    }

    /// Makes the directory ready for a new recording: creates it (and missing parents), applies
    /// `existing` to a directory that is already there, and probes it with a write. When any
    /// step fails, the directories this call created are removed again, and only those.
    /// - Returns: the directories it created, outermost first: what ``removeCreated(_:)`` takes
    ///   back when the recording then does not start (a refused join).
    /// - Throws: ``RecordingDirectoryError/alreadyExists(path:)`` under ``Existing/refuse``,
    ///   ``RecordingDirectoryError/holdsRecording(path:file:)`` under ``Existing/refuseRecording``,
    ///   ``RecordingDirectoryError/notWritable(path:operation:reason:)`` when it cannot be made or written.
    public func prepare(existing: Existing) throws(RecordingDirectoryError) -> [String] {
        var created: [String] = []
        do throws(RecordingDirectoryError) {
            let last = try createDirectories(created: &created)
            if created.last != last {
                switch existing {
                case .refuse: throw RecordingDirectoryError.alreadyExists(path: path)
                case .refuseRecording:
                    if let file = recordingFile() { throw RecordingDirectoryError.holdsRecording(path: path, file: file) }
                case .overwrite, .continueRecording: break
                }
            }
            try probe()
        } catch {
            Self.removeCreated(created)
            throw error
        }
        return created
    }

    /// Removes `directories` (as ``prepare(existing:)`` returned them) innermost first, each only
    /// if it is empty by then: what a recording that never started leaves of itself.
    public static func removeCreated(_ directories: [String]) {
        for directory in directories.reversed() { _ = rmdir(directory) }
    }

    /// The first file in the directory that belongs to a recording (manifest.json, a participant's
    /// WebM/MKV/WAV/Opus, mix.wav, data.jsonl, a report or transcript), nil when there is none.
    public func recordingFile() -> String? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return entries.sorted().first(where: Self.isRecordingFile)
    }

    /// Whether a file of this name is one a recording writes.
    public static func isRecordingFile(_ name: String) -> Bool {
        recordingFileNames.contains(name) || recordingFileExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// Files a recording writes under fixed names (ARCHITECTURE.md's recording directory).
    static let recordingFileNames: Set<String> = [
        ManifestWriter.fileName, "data.jsonl", "report.json", "report.html", "transcript.jsonl", "captions.vtt",
    ]
    /// Extensions of the per-participant and mix files.
    static let recordingFileExtensions: Set<String> = ["webm", "mkv", "wav", "opus"]

    private func probe() throws(RecordingDirectoryError) {
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
    /// Each directory it makes is appended to `created` as it goes (so a failure half-way still
    /// reports what to take back). The last component's mkdir is the atomic claim: exactly one
    /// of two callers racing for a new directory sees it in `created`.
    /// - Returns: the directory's own path as made from its components.
    private func createDirectories(created: inout [String]) throws(RecordingDirectoryError) -> String {
        let components = (path as NSString).pathComponents
        guard !components.isEmpty else {
            throw .notWritable(path: path, operation: "create directory", reason: "the path is empty")
        }
        var current = ""
        for component in components {
            current = current.isEmpty ? component : (current as NSString).appendingPathComponent(component)
            if mkdir(current, 0o755) == 0 {
                created.append(current)
                continue
            }
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
        return current
    }

    private func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private func failure(_ operation: String, _ file: String) -> RecordingDirectoryError {
        .notWritable(path: path, operation: "\(operation) \(file)", reason: String(cString: strerror(errno)))
    }
}
