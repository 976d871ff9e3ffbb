import Foundation

/// Opens the media files players read (WAV, FLAC, Ogg, WebM, IVF) so that a path naming
/// something other than a regular file can never block or stream forever.
///
/// A FIFO blocks `open(2)` until a writer comes, and a device such as `/dev/zero` never ends, so
/// a header scan on it never returns: one such playlist entry used to hold a thread for good (in
/// the daemon, enough of them wedged the whole process). Here the path is opened with
/// `O_NONBLOCK` (a FIFO's open then returns at once), the opened descriptor is `fstat`ed (so a
/// symlink is judged by what it points to, and nothing can be swapped in between the check and
/// the read), anything but a regular file is refused, and the descriptor is switched back to
/// blocking reads for the readers.
public enum MediaFile {
    /// A descriptor open for reading on the regular file at `path` (symlinks followed); the
    /// caller owns it and closes it.
    public static func openForReading(_ path: String) throws(MediaFileError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotOpen(path: path, reason: reason)
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            throw .notRegularFile(path: path, kind: kindName(type))
        }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotOpen(path: path, reason: reason)
        }
        return descriptor
    }

    /// ``openForReading(_:)`` as a FileHandle that closes the descriptor when it goes away.
    public static func openHandle(_ path: String) throws(MediaFileError) -> FileHandle {
        FileHandle(fileDescriptor: try openForReading(path), closeOnDealloc: true)
    }

    /// Checks that `path` can be opened and is a regular file, without keeping it open.
    public static func checkRegular(_ path: String) throws(MediaFileError) {
        close(try openForReading(path))
    }

    /// A path that opens the same open file again: for a C library that takes a path only. The
    /// kernel resolves it to the descriptor's own inode (a regular file, checked), so the
    /// second open cannot block or land on something swapped in meanwhile. Valid while
    /// `descriptor` stays open.
    public static func reopenPath(_ descriptor: Int32) -> String {
        "/proc/self/fd/\(descriptor)"
    }

    private static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
