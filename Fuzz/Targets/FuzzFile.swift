import Foundation

/// The readers of files (WebM, IVF, Ogg) take a path, so each input is written to one file per
/// process and target, in /dev/shm when there is one: the file system round trip is part of
/// what the real reader does, and costs microseconds there.
enum FuzzFile {
    static func path(for target: String) -> String {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(directory)/agentd-fuzz-\(getpid())-\(target)"
    }

    /// Writes `bytes` to the target's file and returns its path; nil when the write failed
    /// (the input is then skipped, not blamed).
    static func write(_ bytes: UnsafeRawBufferPointer, for target: String) -> String? {
        let path = path(for: target)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            guard result > 0 else { return nil }
            written += result
        }
        return path
    }
}
