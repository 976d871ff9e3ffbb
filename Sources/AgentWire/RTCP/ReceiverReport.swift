import AgentCore

/// RTCP Receiver Report, PT 201 (RFC 3550 §6.4.2).
///
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|    RC   |   PT=RR=201   |             length            |
///     |                     SSRC of packet sender                     |
///     +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
///     |                 report blocks (RC × 24 bytes)                 |
public struct ReceiverReport: Equatable, Sendable {
    public var ssrc: UInt32
    public var reports: [ReceptionReport]

    public init(ssrc: UInt32, reports: [ReceptionReport]) {
        self.ssrc = ssrc
        self.reports = reports
    }

    static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> ReceiverReport {
        let needed = 8 + Int(header.count) * ReceptionReport.length
        guard header.byteLength >= needed else { throw .truncated(needed: needed, got: header.byteLength) }
        return try RTCPHeader.readBody(of: packet) { reader throws(ByteRangeError) in
            let ssrc: UInt32 = try reader.readBigEndian()
            var reports: [ReceptionReport] = []
            reports.reserveCapacity(Int(header.count))
            for _ in 0..<Int(header.count) { reports.append(try ReceptionReport.parse(&reader)) }
            return ReceiverReport(ssrc: ssrc, reports: reports)
        }
    }

    public func write(into output: inout [UInt8]) {
        let count = min(reports.count, 31)
        RTCPHeader(count: UInt8(count), packetType: RTCPHeader.receiverReport, byteLength: 8 + count * ReceptionReport.length)
            .write(into: &output)
        output.appendBigEndian(ssrc)
        for report in reports.prefix(count) { report.write(into: &output) }
    }
}
