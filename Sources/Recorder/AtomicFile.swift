import Foundation
import Synchronization

/// Replaces a file's whole content so that a reader (or a crash) sees either the old file or
/// the new one, never a part: the bytes go to a hidden temporary in the same directory, are
/// fsynced, and the temporary is renamed over the file (rename(2) within one file system is
/// atomic); then the directory is fsynced so the rename lasts.
enum AtomicFile {
    /// Unique per process and write, so concurrent writers never share a temporary.
    private static let counter = Mutex(0)

    static func replace(_ path: String, with bytes: [UInt8]) throws(SinkError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let number = counter.withLock { value -> Int in
            value += 1
            return value
        }
        let temporary = ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent(".\(name).\(getpid()).\(number).tmp")
        do {
            let sink = try FileByteSink(path: temporary)
            try sink.append(bytes)
            try sink.close()  // fsyncs
        } catch {
            unlink(temporary)
            throw error as? SinkError ?? SinkError(operation: "write", path: temporary, reason: "\(error)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SinkError(operation: "rename", path: path, reason: reason)
        }
        syncDirectory(directory.isEmpty ? "." : directory)
    }

    /// Best effort: a file system that cannot fsync a directory still has the new file in place.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }
}
