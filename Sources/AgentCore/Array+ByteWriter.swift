/// The appending form of ``ByteWriter``: integers in either byte order onto a growing byte array,
/// as the RTCP, DCEP, IVF, Ogg and EBML writers build their messages.
extension Array where Element == UInt8 {
    /// Appends `value` big-endian (network order), in `T`'s width.
    @inline(__always)
    package mutating func appendBigEndian<T: FixedWidthInteger & BitwiseCopyable>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Appends `value` little-endian, in `T`'s width.
    @inline(__always)
    package mutating func appendLittleEndian<T: FixedWidthInteger & BitwiseCopyable>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
