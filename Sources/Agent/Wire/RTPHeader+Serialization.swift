/// Writing an RTP header (RFC 3550 §5.1) with optional one-byte extension elements (RFC 8285 §4.2)
/// into a caller-owned buffer, so the send path reuses one buffer per stream.
extension RTPHeader {
    /// One one-byte extension element to write: id 1…14, 1…16 bytes of data.
    public struct ExtensionElement: Sendable, Equatable {
        public let id: UInt8
        public let data: [UInt8]
        public init(id: UInt8, data: [UInt8]) {
            self.id = id
            self.data = data
        }
    }

    /// The header length these elements need, padded to a 32-bit boundary.
    public static func length(csrcCount: Int = 0, extensions: [ExtensionElement]) -> Int {
        var length = fixedLength + 4 * csrcCount
        if !extensions.isEmpty {
            let elements = extensions.reduce(0) { $0 + 1 + $1.data.count }
            length += 4 + (elements + 3) / 4 * 4
        }
        return length
    }

    /// Writes the header into `buffer` and returns the number of bytes written (the payload goes
    /// right after). Elements with an out-of-range id or size are a programming error, reported
    /// as `badExtensionElement`.
    public static func write(
        marker: Bool, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32,
        extensions: [ExtensionElement] = [], into buffer: UnsafeMutableRawBufferPointer
    ) throws(RTPError) -> Int {
        let needed = length(extensions: extensions)
        guard buffer.count >= needed else { throw .bufferTooSmall(needed: needed, capacity: buffer.count) }
        buffer[0] = 0x80 | (extensions.isEmpty ? 0 : 0x10)
        buffer[1] = (marker ? 0x80 : 0) | (payloadType & 0x7F)
        buffer.storeBigEndian(sequenceNumber, at: 2)
        buffer.storeBigEndian(timestamp, at: 4)
        buffer.storeBigEndian(ssrc, at: 8)
        guard !extensions.isEmpty else { return fixedLength }
        buffer.storeBigEndian(oneByteProfile, at: 12)
        buffer.storeBigEndian(UInt16((needed - fixedLength - 4) / 4), at: 14)
        var offset = 16
        for (index, element) in extensions.enumerated() {
            guard (1...14).contains(element.id), (1...16).contains(element.data.count) else {
                throw .badExtensionElement(offset: index)
            }
            buffer[offset] = element.id << 4 | UInt8(element.data.count - 1)
            offset += 1
            for byte in element.data {
                buffer[offset] = byte
                offset += 1
            }
        }
        while offset < needed {
            buffer[offset] = 0
            offset += 1
        }
        return needed
    }
}

extension UnsafeMutableRawBufferPointer {
    @inline(__always)
    func storeBigEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        let size = MemoryLayout<T>.size
        for index in 0..<size {
            self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - index)))
        }
    }
}
