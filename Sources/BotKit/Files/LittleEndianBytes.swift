/// Little-endian integer access for the file formats in this folder (IVF stores every field LE).

extension FixedWidthInteger {
    /// Reads `Self` little-endian from `bytes[offset...]`; the caller has checked the length.
    init(littleEndian bytes: [UInt8], at offset: Int) {
        var value: Self = 0
        for index in (0..<(Self.bitWidth / 8)).reversed() {
            value = value << 8 | Self(bytes[offset + index])
        }
        self = value
    }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<(T.bitWidth / 8) {
            append(UInt8(truncatingIfNeeded: value >> (index * 8)))
        }
    }
}
