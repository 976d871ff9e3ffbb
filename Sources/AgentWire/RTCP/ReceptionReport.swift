import AgentCore

/// One report block of an SR or RR (RFC 3550 §6.4.1), 24 bytes.
///
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///     |                 SSRC_1 (SSRC of first source)                 |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     | fraction lost |       cumulative number of packets lost       |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |           extended highest sequence number received           |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                      interarrival jitter                      |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                         last SR (LSR)                         |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                   delay since last SR (DLSR)                  |
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
public struct ReceptionReport: Equatable, Sendable {
    public var ssrc: UInt32
    /// Lost fraction since the last report, in 1/256ths.
    public var fractionLost: UInt8
    /// Cumulative lost packets; a signed 24-bit value on the wire (duplicates can make it negative).
    public var cumulativeLost: Int32
    public var extendedHighestSequence: UInt32
    public var jitter: UInt32
    /// Middle 32 bits of the NTP time of the last SR received from this source.
    public var lastSenderReport: UInt32
    /// Delay since that SR, in 1/65536 s.
    public var delaySinceLastSenderReport: UInt32

    public static let length = 24

    public init(
        ssrc: UInt32, fractionLost: UInt8 = 0, cumulativeLost: Int32 = 0, extendedHighestSequence: UInt32 = 0,
        jitter: UInt32 = 0, lastSenderReport: UInt32 = 0, delaySinceLastSenderReport: UInt32 = 0
    ) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    /// Reads one block (24 bytes) from `reader`.
    static func parse(_ reader: inout ByteReader) throws(ByteRangeError) -> ReceptionReport {
        let ssrc: UInt32 = try reader.readBigEndian()
        let lostField: UInt32 = try reader.readBigEndian()
        let raw24 = Int32(bitPattern: lostField << 8) >> 8  // sign-extend 24 bits
        return ReceptionReport(
            ssrc: ssrc,
            fractionLost: UInt8(lostField >> 24),
            cumulativeLost: raw24,
            extendedHighestSequence: try reader.readBigEndian(),
            jitter: try reader.readBigEndian(),
            lastSenderReport: try reader.readBigEndian(),
            delaySinceLastSenderReport: try reader.readBigEndian())
    }

    func write(into output: inout [UInt8]) {
        output.appendBigEndian(ssrc)
        let clamped = max(-0x80_0000, min(0x7F_FFFF, cumulativeLost))
        output.appendBigEndian(UInt32(fractionLost) << 24 | (UInt32(bitPattern: clamped) & 0x00FF_FFFF))
        output.appendBigEndian(extendedHighestSequence)
        output.appendBigEndian(jitter)
        output.appendBigEndian(lastSenderReport)
        output.appendBigEndian(delaySinceLastSenderReport)
    }
}
