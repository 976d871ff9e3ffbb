import AgentCore

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
        var reader = ByteReader(bytes)
        let word: UInt32, timestamp: UInt32, ssrc: UInt32
        do throws(ByteRangeError) {
            // The first word whole (V, P, X, CC, M, PT, sequence number): one load, not three.
            word = try reader.readBigEndian()
            timestamp = try reader.readBigEndian()
            ssrc = try reader.readBigEndian()
        } catch {
            throw .truncated(needed: fixedLength, got: count)
        }
        let first = UInt8(truncatingIfNeeded: word >> 24)
        let second = UInt8(truncatingIfNeeded: word >> 16)
        let sequenceNumber = UInt16(truncatingIfNeeded: word)
        let version = first >> 6
        guard version == 2 else { throw .badVersion(version) }
        let hasPadding = first & 0x20 != 0
        let hasExtension = first & 0x10 != 0
        let csrcCount = Int(first & 0x0F)
        do throws(ByteRangeError) {
            try reader.skip(4 * csrcCount)
        } catch {
            throw .truncated(needed: error.needed, got: count)
        }

        var extensionProfile: UInt16?
        var extensionRange: Range<Int>?
        if hasExtension {
            do throws(ByteRangeError) {
                // Profile and length as one word, so a cut anywhere in it needs the whole word.
                let word = try reader.readBigEndian(UInt32.self)
                let start = reader.offset
                try reader.skip(4 * Int(word & 0xFFFF))
                extensionProfile = UInt16(truncatingIfNeeded: word >> 16)
                extensionRange = start..<reader.offset
            } catch {
                throw .extensionPastEnd(needed: error.needed, got: count)
            }
        }

        let offset = reader.offset
        var paddingLength = 0
        if hasPadding {
            // The last byte counts the padding, itself included (RFC 3550 §5.1).
            guard let last = bytes.last, count > offset else { throw .paddingPastEnd(padding: 1, available: 0) }
            paddingLength = Int(last)
            guard paddingLength >= 1, paddingLength <= count - offset else {
                throw .paddingPastEnd(padding: paddingLength, available: count - offset)
            }
        }

        return RTPHeader(
            marker: second & 0x80 != 0,
            payloadType: second & 0x7F,
            sequenceNumber: sequenceNumber,
            timestamp: timestamp,
            ssrc: ssrc,
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
