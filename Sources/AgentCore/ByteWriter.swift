/// Writes integers and byte runs, in order, into a fixed buffer the caller owns: the in-place
/// form for paths that reuse one buffer per stream (the RTP send path). Growing arrays use the
/// appending form, `[UInt8].appendBigEndian(_:)` and `appendLittleEndian(_:)`.
///
/// Every write checks the room left first and throws ``ByteRangeError`` instead of writing
/// past the end; nothing is allocated.
///
///     var writer = ByteWriter(buffer)
///     try writer.writeBigEndian(sequenceNumber)
///     let length = writer.offset
public struct ByteWriter {
    /// The whole buffer, from its start (offsets count from here).
    public let buffer: UnsafeMutableRawBufferPointer
    /// Where the next write starts, which is also how many bytes are written.
    public private(set) var offset: Int = 0

    public init(_ buffer: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
    }

    /// Room left.
    public var remaining: Int { buffer.count - offset }

    /// Checks that `count` more bytes fit and returns where they start.
    @inline(__always)
    private func start(of count: Int) throws(ByteRangeError) -> Int {
        try ByteRangeError.check(count, at: offset, in: buffer.count)
    }

    @inline(__always)
    public mutating func writeUInt8(_ value: UInt8) throws(ByteRangeError) {
        let start = try start(of: 1)
        buffer[start] = value
        offset = start + 1
    }

    /// Writes `value` big-endian (network order), in `T`'s width.
    @inline(__always)
    public mutating func writeBigEndian<T: FixedWidthInteger & BitwiseCopyable>(_ value: T) throws(ByteRangeError) {
        try store(value.bigEndian)
    }

    /// Writes `value` little-endian, in `T`'s width.
    @inline(__always)
    public mutating func writeLittleEndian<T: FixedWidthInteger & BitwiseCopyable>(_ value: T) throws(ByteRangeError) {
        try store(value.littleEndian)
    }

    /// Stores `value`'s bytes as they lie in memory.
    @inline(__always)
    private mutating func store<T: FixedWidthInteger & BitwiseCopyable>(_ value: T) throws(ByteRangeError) {
        let size = MemoryLayout<T>.size
        let start = try start(of: size)
        buffer.storeBytes(of: value, toByteOffset: start, as: T.self)
        offset = start + size
    }

    /// Copies `bytes` in.
    @inline(__always)
    public mutating func writeBytes(_ bytes: some Collection<UInt8>) throws(ByteRangeError) {
        let start = try start(of: bytes.count)
        var index = start
        for byte in bytes {
            buffer[index] = byte
            index += 1
        }
        offset = index
    }

    /// Writes `count` zero bytes.
    @inline(__always)
    public mutating func writeZeros(_ count: Int) throws(ByteRangeError) {
        let start = try start(of: count)
        if count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + count)]).initializeMemory(as: UInt8.self, repeating: 0)
        }
        offset = start + count
    }
}
