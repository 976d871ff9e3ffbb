/// Reads integers and byte runs, in order, from bytes it does not own: a packet off the network,
/// a page of a file. One reader for every wire and file format here (RTP, RTCP, DCEP, VP8/VP9
/// descriptors, Ogg Opus headers, IVF).
///
/// Every read checks what remains first and throws ``ByteRangeError`` instead of reading past
/// the end, so a parser built on it cannot trap on short input. It reads in place (no copies,
/// no allocation) and is a plain value: copy it to look ahead.
///
///     var reader = ByteReader(buffer)
///     let sequence = try reader.readBigEndian(UInt16.self)
///     let payload = try reader.readBytes(reader.remaining)
///
/// The buffer must outlive the reader: build one inside `withUnsafeBytes`, or use
/// ``read(_:_:)`` on an array or slice.
public struct ByteReader {
    /// All the bytes being read, from their start (offsets count from here).
    public let bytes: UnsafeRawBufferPointer
    /// Where the next read starts.
    public private(set) var offset: Int = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Bytes not read yet.
    @inline(__always)
    public var remaining: Int { bytes.count - offset }

    public var isAtEnd: Bool { offset >= bytes.count }

    /// Checks that `count` more bytes are there and returns where they start.
    @inline(__always)
    private func start(of count: Int) throws(ByteRangeError) -> Int {
        try ByteRangeError.check(count, at: offset, in: bytes.count)
    }

    @inline(__always)
    public mutating func readUInt8() throws(ByteRangeError) -> UInt8 {
        let start = try start(of: 1)
        offset = start + 1
        return bytes[start]
    }

    /// Reads a big-endian (network order) integer of `T`'s width.
    @inline(__always)
    public mutating func readBigEndian<T: FixedWidthInteger & BitwiseCopyable>(_: T.Type = T.self)
        throws(ByteRangeError) -> T
    {
        T(bigEndian: try load(T.self))
    }

    /// Reads a little-endian integer of `T`'s width.
    @inline(__always)
    public mutating func readLittleEndian<T: FixedWidthInteger & BitwiseCopyable>(_: T.Type = T.self)
        throws(ByteRangeError) -> T
    {
        T(littleEndian: try load(T.self))
    }

    /// The next `MemoryLayout<T>.size` bytes as they lie in memory.
    @inline(__always)
    private mutating func load<T: FixedWidthInteger & BitwiseCopyable>(_: T.Type) throws(ByteRangeError) -> T {
        let size = MemoryLayout<T>.size
        let start = try start(of: size)
        offset = start + size
        return bytes.loadUnaligned(fromByteOffset: start, as: T.self)
    }

    /// The next `count` bytes, in place: a view into ``bytes``, valid as long as they are.
    @inline(__always)
    public mutating func readBytes(_ count: Int) throws(ByteRangeError) -> UnsafeRawBufferPointer {
        let start = try start(of: count)
        offset = start + count
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
    }

    /// Moves past `count` bytes without reading them.
    @inline(__always)
    public mutating func skip(_ count: Int) throws(ByteRangeError) {
        offset = try start(of: count) + count
    }
}

extension ByteReader {
    /// Runs `body` with a reader over the bytes of `bytes` (an array or slice reads in place;
    /// other sequences are copied into an array first). The reader must not escape `body`.
    public static func read<Bytes: Sequence<UInt8>, Value, Failure: Error>(
        _ bytes: Bytes, _ body: (inout ByteReader) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        // withContiguousStorageIfAvailable is untyped; carry the typed error out in a Result.
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            var reader = ByteReader(UnsafeRawBufferPointer(buffer))
            return Result { () throws(Failure) in try body(&reader) }
        }
        if let result { return try result.get() }
        return try read(Array(bytes), body)
    }
}
