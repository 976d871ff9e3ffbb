import AgentCore

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
        var writer = ByteWriter(buffer)
        do throws(ByteRangeError) {
            // The first word whole (V, P, X, CC, M, PT, sequence number): one store, not three.
            let first: UInt32 = 0x80 | (extensions.isEmpty ? 0 : 0x10)
            let second = UInt32((marker ? 0x80 : 0) | (payloadType & 0x7F))
            try writer.writeBigEndian(first << 24 | second << 16 | UInt32(sequenceNumber))
            try writer.writeBigEndian(timestamp)
            try writer.writeBigEndian(ssrc)
            guard !extensions.isEmpty else { return fixedLength }
            try writer.writeBigEndian(oneByteProfile)
            try writer.writeBigEndian(UInt16((needed - fixedLength - 4) / 4))
        } catch {
            throw .bufferTooSmall(needed: needed, capacity: buffer.count)
        }
        for (index, element) in extensions.enumerated() {
            guard (1...14).contains(element.id), (1...16).contains(element.data.count) else {
                throw .badExtensionElement(offset: index)
            }
            do throws(ByteRangeError) {
                try writer.writeUInt8(element.id << 4 | UInt8(element.data.count - 1))
                try writer.writeBytes(element.data)
            } catch {
                throw .bufferTooSmall(needed: needed, capacity: buffer.count)
            }
        }
        do throws(ByteRangeError) {
            try writer.writeZeros(needed - writer.offset)
        } catch {
            throw .bufferTooSmall(needed: needed, capacity: buffer.count)
        }
        return needed
    }
}
