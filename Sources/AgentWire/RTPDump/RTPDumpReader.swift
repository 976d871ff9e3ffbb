#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AgentCore

/// Reads an rtpdump file (the layout is on ``RTPDumpHeader`` and ``RTPDumpRecord``) one record
/// at a time. The file is outside input: every length is checked against the bytes that are
/// there before it is used, so a hostile file gives an ``RTPDumpError``, never a trap or an
/// allocation of what it declares.
///
///     var reader = try RTPDumpReader(contentsOf: path, maxBytes: 64 << 20)
///     while let record = try reader.next() { … }
public struct RTPDumpReader: Sendable {
    /// The first line must end within this many bytes (rtptools writes at most 35:
    /// `#!rtpplay1.0 255.255.255.255/65535`).
    public static let maximumLineLength = 128

    public let header: RTPDumpHeader
    /// Where the next record starts, counted from the start of the file.
    public private(set) var offset: Int
    private let bytes: [UInt8]

    /// Reads the text line and the binary header of `bytes`; the records are read by ``next()``.
    public init(_ bytes: [UInt8]) throws(RTPDumpError) {
        let magic = Array(RTPDumpHeader.magic.utf8)
        let head = bytes.prefix(Self.maximumLineLength)
        guard head.starts(with: magic.prefix(head.count)) else { throw .notRTPDump("the file does not start with \(RTPDumpHeader.magic)") }
        guard let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")) else {
            throw .notRTPDump("no line end in the first \(Self.maximumLineLength) bytes")
        }
        // The text's address and port repeat the binary ones, which are kept; like rtpplay, only
        // the magic is checked.
        let binaryStart = lineEnd + 1
        do throws(ByteRangeError) {
            header = try ByteReader.read(bytes[binaryStart...]) { reader throws(ByteRangeError) in
                let header = RTPDumpHeader(startSeconds: try reader.readBigEndian(), startMicroseconds: try reader.readBigEndian(),
                                           address: try reader.readBigEndian(), port: try reader.readBigEndian())
                try reader.skip(2)  // the padding, whatever it holds
                return header
            }
        } catch {
            throw .truncated(offset: binaryStart)
        }
        self.bytes = bytes
        self.offset = binaryStart + RTPDumpHeader.binaryLength
    }

    /// The next record, or nil at the end of the file. After an error the reader stays where it
    /// was, so asking again gives the same error.
    public mutating func next() throws(RTPDumpError) -> RTPDumpRecord? {
        guard offset < bytes.count else { return nil }
        let start = offset
        let record = try ByteReader.read(bytes[start...]) { reader throws(RTPDumpError) in
            try Self.readRecord(from: &reader, at: start)
        }
        offset = start + RTPDumpRecord.headerLength + record.bytes.count
        return record
    }

    /// One record from `reader`, which starts at the record; `start` is its place in the file.
    private static func readRecord(from reader: inout ByteReader, at start: Int) throws(RTPDumpError) -> RTPDumpRecord {
        let length: Int, plen: Int, offsetMilliseconds: UInt32
        do throws(ByteRangeError) {
            length = Int(try reader.readBigEndian(UInt16.self))
            plen = Int(try reader.readBigEndian(UInt16.self))
            offsetMilliseconds = try reader.readBigEndian()
        } catch {
            throw .truncated(offset: start)
        }
        guard length >= RTPDumpRecord.headerLength else {
            throw .badRecord(offset: start, "length \(length) is shorter than the record header")
        }
        let stored = length - RTPDumpRecord.headerLength
        guard plen == 0 || plen >= stored else {
            throw .badRecord(offset: start, "\(stored) bytes stored of a packet of \(plen)")
        }
        let packet: UnsafeRawBufferPointer
        do throws(ByteRangeError) {
            packet = try reader.readBytes(stored)
        } catch {
            throw .truncated(offset: start)
        }
        return RTPDumpRecord(offsetMilliseconds: offsetMilliseconds, isRTCP: plen == 0, bytes: Array(packet),
                             originalLength: plen == 0 ? stored : plen)
    }
}

extension RTPDumpReader {
    /// Reads the file at `path`, refusing one of more than `maxBytes` before reading it, and one
    /// that is not a regular file (a FIFO or a device would block or never end).
    public init(contentsOf path: String, maxBytes: Int) throws(RTPDumpError) {
        try self.init(try Self.readFile(path, maxBytes: maxBytes))
    }

    private static func readFile(_ path: String, maxBytes: Int) throws(RTPDumpError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable("\(path): \(systemReason())") }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable("\(path): \(systemReason())") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unreadable("\(path): not a regular file") }
        let size = Int(clamping: status.st_size)
        guard size <= maxBytes else { throw .fileTooLarge(bytes: size, limit: maxBytes) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        // Up to the size fstat gave: a file that grows meanwhile is read as it was, one that
        // shrinks as far as it goes.
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, size - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable("\(path): \(systemReason())")
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
