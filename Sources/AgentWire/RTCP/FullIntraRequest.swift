import AgentCore

/// Full Intra Request, PSFB FMT 4 (RFC 5104 §4.3.1): a stronger keyframe request than PLI, with a
/// sequence number per target so the sender can tell a repeat from a new request.
///
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|  FMT=4  |   PT=206      |          length               |
///     |                  SSRC of packet sender                        |
///     |             SSRC of media source (unused, 0)                  |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |                              SSRC                             |  (FCI, repeated)
///     | Seq nr.       |    Reserved                                   |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
public struct FullIntraRequest: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var ssrc: UInt32
        public var sequenceNumber: UInt8
        public init(ssrc: UInt32, sequenceNumber: UInt8) {
            self.ssrc = ssrc
            self.sequenceNumber = sequenceNumber
        }
    }

    public var senderSSRC: UInt32
    public var entries: [Entry]

    public static let format: UInt8 = 4

    public init(senderSSRC: UInt32, entries: [Entry]) {
        self.senderSSRC = senderSSRC
        self.entries = entries
    }

    static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> FullIntraRequest {
        guard header.byteLength >= 20 else { throw .truncated(needed: 20, got: header.byteLength) }
        return try RTCPHeader.readBody(of: packet) { reader throws(ByteRangeError) in
            let senderSSRC: UInt32 = try reader.readBigEndian()
            try reader.skip(4)  // media source, unused
            var entries: [Entry] = []
            while reader.remaining >= 8 {
                entries.append(Entry(ssrc: try reader.readBigEndian(), sequenceNumber: try reader.readUInt8()))
                try reader.skip(3)  // reserved
            }
            return FullIntraRequest(senderSSRC: senderSSRC, entries: entries)
        }
    }

    public func write(into output: inout [UInt8]) {
        RTCPHeader(count: Self.format, packetType: RTCPHeader.payloadFeedback, byteLength: 12 + 8 * entries.count)
            .write(into: &output)
        output.appendBigEndian(senderSSRC)
        output.appendBigEndian(UInt32(0))
        for entry in entries {
            output.appendBigEndian(entry.ssrc)
            output.append(entry.sequenceNumber)
            output.append(contentsOf: [0, 0, 0])
        }
    }
}
