import Foundation

/// Disk space held back for the last manifest.
///
/// A recording that fills its disk must still say so: the final manifest.json, with the error
/// that ended the recording, goes through a temporary file and a rename, and both need free
/// blocks. So the recording holds a hidden file of zero bytes (allocated, not sparse) from its
/// start, and gives it back when a manifest write fails for want of space. The file is removed
/// when the recording ends; a killed recorder leaves it behind, hidden, with its name saying
/// what it is.
final class SpaceReserve {
    static let fileName = ".manifest.reserve"
    /// A manifest is about 1 KB per participant; 256 KiB fits a room far larger than Janus allows.
    static let defaultBytes = 256 * 1024

    let path: String
    /// True while the reserve is on disk.
    private(set) var isHeld = false

    /// Allocates the reserve in `directory`. Best effort: on a disk already too full for it the
    /// recording goes on without one (and fails at its first write anyway).
    init(directory: String, bytes: Int = defaultBytes) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { _ = close(descriptor) }
        // posix_fallocate allocates real blocks (it writes zeros itself where the file system
        // cannot allocate), so the space is taken now, not when the reserve is needed.
        guard posix_fallocate(descriptor, 0, off_t(bytes)) == 0 else {
            unlink(path)
            return
        }
        isHeld = true
    }

    /// Gives the space back. Returns whether there was any to give. Idempotent.
    @discardableResult
    func release() -> Bool {
        guard isHeld else { return false }
        isHeld = false
        return unlink(path) == 0
    }
}
