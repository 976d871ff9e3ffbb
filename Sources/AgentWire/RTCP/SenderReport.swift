import AgentCore

/// RTCP Sender Report, PT 200 (RFC 3550 §6.4.1). It maps the sender's RTP clock to NTP wall time,
/// which is how streams and participants are aligned.
///
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|    RC   |   PT=SR=200   |             length            |
///     |                         SSRC of sender                        |
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///     |              NTP timestamp, most significant word             |
///     |             NTP timestamp, least significant word             |
///     |                         RTP timestamp                         |
///     |                     sender's packet count                     |
///     |                      sender's octet count                     |
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///     |                 report blocks (RC × 24 bytes)                 |
public struct SenderReport: Equatable, Sendable {
    public var ssrc: UInt32
    /// 64-bit NTP time: seconds since 1900 in the high word, fraction in the low word.
    public var ntpTime: UInt64
    public var rtpTime: UInt32
    public var packetCount: UInt32
    public var octetCount: UInt32
    public var reports: [ReceptionReport]

    public init(ssrc: UInt32, ntpTime: UInt64, rtpTime: UInt32, packetCount: UInt32, octetCount: UInt32, reports: [ReceptionReport] = []) {
        self.ssrc = ssrc
        self.ntpTime = ntpTime
        self.rtpTime = rtpTime
        self.packetCount = packetCount
        self.octetCount = octetCount
        self.reports = reports
    }

    /// The middle 32 bits of the NTP time, as echoed in a report block's LSR field.
    public var compactNTP: UInt32 { UInt32(truncatingIfNeeded: ntpTime >> 16) }

    static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> SenderReport {
        let needed = 28 + Int(header.count) * ReceptionReport.length
        guard header.byteLength >= needed else { throw .truncated(needed: needed, got: header.byteLength) }
        return try RTCPHeader.readBody(of: packet) { reader throws(ByteRangeError) in
            let ssrc: UInt32 = try reader.readBigEndian()
            let ntpTime: UInt64 = try reader.readBigEndian()
            let rtpTime: UInt32 = try reader.readBigEndian()
            let packetCount: UInt32 = try reader.readBigEndian()
            let octetCount: UInt32 = try reader.readBigEndian()
            var reports: [ReceptionReport] = []
            reports.reserveCapacity(Int(header.count))
            for _ in 0..<Int(header.count) { reports.append(try ReceptionReport.parse(&reader)) }
            return SenderReport(
                ssrc: ssrc, ntpTime: ntpTime, rtpTime: rtpTime, packetCount: packetCount, octetCount: octetCount,
                reports: reports)
        }
    }

    public func write(into output: inout [UInt8]) {
        let count = min(reports.count, 31)
        RTCPHeader(count: UInt8(count), packetType: RTCPHeader.senderReport, byteLength: 28 + count * ReceptionReport.length)
            .write(into: &output)
        output.appendBigEndian(ssrc)
        output.appendBigEndian(ntpTime)
        output.appendBigEndian(rtpTime)
        output.appendBigEndian(packetCount)
        output.appendBigEndian(octetCount)
        for report in reports.prefix(count) { report.write(into: &output) }
    }
}
