import Foundation

/// Where a writer's bytes go: appended in order, with the rare back-patch of a header field.
/// Writers take a sink so tests can write to memory; the path-based initializers delegate to a
/// ``FileByteSink``.
public protocol ByteSink: AnyObject {
    /// Bytes appended so far.
    var position: Int64 { get }
    func append(_ bytes: [UInt8]) throws
    /// Overwrites bytes already written at `offset` (header sizes, durations).
    func overwrite(_ bytes: [UInt8], at offset: Int64) throws
    /// Makes appended bytes durable enough that a killed process leaves them on disk.
    func flush() throws
    func close() throws
}

/// Why a sink could not write. Carries errno's text, so a full disk says so.
public struct SinkError: Error, Equatable, Sendable, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let reason: String

    public var description: String { "\(operation) \(path): \(reason)" }
}

/// Appends to a file with POSIX calls; `pwrite` patches headers without moving the append offset.
public final class FileByteSink: ByteSink {
    public let path: String
    private var descriptor: Int32
    public private(set) var position: Int64 = 0

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SinkError(operation: "open", path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { try? close() }

    /// Appends all of `bytes` or, when the write fails part way (a full disk), none of them: the
    /// partial tail is cut off, so the file still ends where the last whole append ended (a
    /// complete WebM cluster, a complete line) and stays readable up to the failure.
    public func append(_ bytes: [UInt8]) throws {
        do {
            try writeAll(bytes, at: position)
        } catch {
            if descriptor >= 0 { _ = ftruncate(descriptor, off_t(position)) }
            throw error
        }
        position += Int64(bytes.count)
    }

    public func overwrite(_ bytes: [UInt8], at offset: Int64) throws {
        guard offset + Int64(bytes.count) <= position else {
            throw SinkError(operation: "overwrite", path: path, reason: "range past the end")
        }
        try writeAll(bytes, at: offset)
    }

    private func writeAll(_ bytes: [UInt8], at offset: Int64) throws {
        guard descriptor >= 0 else { throw SinkError(operation: "write", path: path, reason: "closed") }
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw SinkError(operation: "write", path: path, reason: String(cString: strerror(errno)))
            }
            done += written
        }
    }

    public func flush() throws {
        // Data reaches the page cache on every write, which survives a killed process; fsync is
        // for power loss and is left to close().
    }

    public func close() throws {
        guard descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        if fsync(fd) != 0, errno != EINVAL {
            let reason = String(cString: strerror(errno))
            _ = Glibc.close(fd)
            throw SinkError(operation: "fsync", path: path, reason: reason)
        }
        guard Glibc.close(fd) == 0 else { throw SinkError(operation: "close", path: path, reason: String(cString: strerror(errno))) }
    }
}

/// Keeps everything in memory; for tests and for building small files.
public final class MemoryByteSink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public private(set) var closed = false

    public init() {}

    public var position: Int64 { Int64(bytes.count) }
    public func append(_ bytes: [UInt8]) throws { self.bytes += bytes }
    public func overwrite(_ bytes: [UInt8], at offset: Int64) throws {
        let start = Int(offset)
        guard start >= 0, start + bytes.count <= self.bytes.count else {
            throw SinkError(operation: "overwrite", path: "memory", reason: "range past the end")
        }
        self.bytes.replaceSubrange(start..<(start + bytes.count), with: bytes)
    }
    public func flush() throws {}
    public func close() throws { closed = true }
}
