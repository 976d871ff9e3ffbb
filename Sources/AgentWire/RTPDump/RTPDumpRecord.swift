/// One packet of an rtpdump file, after the ``RTPDumpHeader``.
///
///      0                   1                   2                   3
///      0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |     length (header + data)    |   plen (original, 0: RTCP)    |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                  offset (ms since the start)                  |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                 packet: length - 8 bytes ...                  |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// A plen larger than the data means the capture kept only the packet's first bytes; a plen of
/// 0 marks an RTCP packet, whose original length is not recorded.
public struct RTPDumpRecord: Equatable, Sendable {
    public var offsetMilliseconds: UInt32
    public var isRTCP: Bool
    /// The packet as stored: all of it, or its first bytes when it was cut.
    public var bytes: [UInt8]
    /// The packet's length on the wire (the record's plen): `bytes.count` for a whole packet and
    /// for RTCP, more for a cut RTP packet.
    public var originalLength: Int

    /// The record's own header, before the packet.
    public static let headerLength = 8
    /// The longest packet a record holds: its 16-bit length counts the header too.
    public static let maximumPacketLength = Int(UInt16.max) - headerLength

    /// A whole packet.
    public init(offsetMilliseconds: UInt32, isRTCP: Bool, bytes: [UInt8]) {
        self.init(offsetMilliseconds: offsetMilliseconds, isRTCP: isRTCP, bytes: bytes, originalLength: bytes.count)
    }

    public init(offsetMilliseconds: UInt32, isRTCP: Bool, bytes: [UInt8], originalLength: Int) {
        self.offsetMilliseconds = offsetMilliseconds
        self.isRTCP = isRTCP
        self.bytes = bytes
        self.originalLength = originalLength
    }

    /// Whether the capture kept only the packet's first bytes.
    public var isCut: Bool { originalLength > bytes.count }
}
