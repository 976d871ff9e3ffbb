/// The fixed RTP header, CSRCs and header extension of one packet (RFC 3550 §5.1), parsed in place.
///
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|X|  CC   |M|     PT      |       sequence number         |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                           timestamp                           |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |           synchronization source (SSRC) identifier            |
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///     |            contributing source (CSRC) identifiers             |
///     |                             ....                              |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |      defined by profile       |           length              |  (if X)
///     |                        header extension                       |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// The header holds offsets into the packet instead of copies, so parsing allocates nothing:
/// the payload is `bytes[payloadRange]`, and extension elements are found with
/// ``extensionElement(id:in:)``.
public struct RTPHeader: Equatable, Sendable {
    public var marker: Bool
    public var payloadType: UInt8
    public var sequenceNumber: UInt16
    public var timestamp: UInt32
    public var ssrc: UInt32
    public var csrcCount: Int
    /// The extension's "defined by profile" field: 0xBEDE for one-byte elements (RFC 8285 §4.2),
    /// 0x100x for two-byte elements (§4.3).
    public var extensionProfile: UInt16?
    /// Where the extension elements lie in the packet (after the 4-byte extension header).
    public var extensionRange: Range<Int>?
    /// Where the payload lies in the packet, padding excluded.
    public var payloadRange: Range<Int>
    public var paddingLength: Int

    public static let fixedLength = 12
    public static let oneByteProfile: UInt16 = 0xBEDE

    /// Parses the header of `bytes`. Never traps: malformed input gives an ``RTPError``.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(RTPError) -> RTPHeader {
        let count = bytes.count
        guard count >= fixedLength else { throw .truncated(needed: fixedLength, got: count) }
        let first = bytes[0]
        let version = first >> 6
        guard version == 2 else { throw .badVersion(version) }
        let hasPadding = first & 0x20 != 0
        let hasExtension = first & 0x10 != 0
        let csrcCount = Int(first & 0x0F)
        var offset = fixedLength + 4 * csrcCount
        guard count >= offset else { throw .truncated(needed: offset, got: count) }

        var extensionProfile: UInt16?
        var extensionRange: Range<Int>?
        if hasExtension {
            guard count >= offset + 4 else { throw .extensionPastEnd(needed: offset + 4, got: count) }
            let profile = bytes.loadBigEndian(UInt16.self, at: offset)
            let words = Int(bytes.loadBigEndian(UInt16.self, at: offset + 2))
            let end = offset + 4 + 4 * words
            guard count >= end else { throw .extensionPastEnd(needed: end, got: count) }
            extensionProfile = profile
            extensionRange = (offset + 4)..<end
            offset = end
        }

        var paddingLength = 0
        if hasPadding {
            guard count > offset else { throw .paddingPastEnd(padding: 1, available: 0) }
            paddingLength = Int(bytes[count - 1])
            guard paddingLength >= 1, paddingLength <= count - offset else {
                throw .paddingPastEnd(padding: paddingLength, available: count - offset)
            }
        }

        return RTPHeader(
            marker: bytes[1] & 0x80 != 0,
            payloadType: bytes[1] & 0x7F,
            sequenceNumber: bytes.loadBigEndian(UInt16.self, at: 2),
            timestamp: bytes.loadBigEndian(UInt32.self, at: 4),
            ssrc: bytes.loadBigEndian(UInt32.self, at: 8),
            csrcCount: csrcCount,
            extensionProfile: extensionProfile,
            extensionRange: extensionRange,
            payloadRange: offset..<(count - paddingLength),
            paddingLength: paddingLength)
    }

    public static func parse(_ bytes: [UInt8]) throws(RTPError) -> RTPHeader {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(RTPError) in try parse(buffer) } }
        return try result.get()
    }
}

extension UnsafeRawBufferPointer {
    /// Reads a big-endian integer at a byte offset the caller has bounds-checked.
    @inline(__always)
    func loadBigEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value = value << 8 | T(self[offset + index])
        }
        return value
    }
}
