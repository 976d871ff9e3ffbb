import AgentCore

/// Generic NACK, RTPFB FMT 1 (RFC 4585 §6.2.1): asks the sender to retransmit lost packets.
///
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|  FMT=1  |   PT=205      |          length               |
///     |                  SSRC of packet sender                        |
///     |                  SSRC of media source                         |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |            PID                |             BLP               |  (repeated)
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///
/// Each item names PID and, through the bitmask BLP, up to 16 following lost sequence numbers.
public struct GenericNACK: Equatable, Sendable {
    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32
    /// Lost sequence numbers, in the order the items list them.
    public var lostSequenceNumbers: [UInt16]

    public static let format: UInt8 = 1

    public init(senderSSRC: UInt32, mediaSSRC: UInt32, lostSequenceNumbers: [UInt16]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.lostSequenceNumbers = lostSequenceNumbers
    }

    static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> GenericNACK {
        guard header.byteLength >= 16 else { throw .truncated(needed: 16, got: header.byteLength) }
        return try RTCPHeader.readBody(of: packet) { reader throws(ByteRangeError) in
            let senderSSRC: UInt32 = try reader.readBigEndian()
            let mediaSSRC: UInt32 = try reader.readBigEndian()
            var lost: [UInt16] = []
            while reader.remaining >= 4 {
                let pid: UInt16 = try reader.readBigEndian()
                let mask: UInt16 = try reader.readBigEndian()
                lost.append(pid)
                for bit in 0..<16 where mask & (1 << bit) != 0 {
                    lost.append(pid &+ UInt16(bit + 1))
                }
            }
            return GenericNACK(senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, lostSequenceNumbers: lost)
        }
    }

    /// Packs the lost sequence numbers into PID/BLP items: each item covers PID…PID+16.
    public var items: [(pid: UInt16, bitmask: UInt16)] {
        var items: [(pid: UInt16, bitmask: UInt16)] = []
        for sequence in lostSequenceNumbers {
            if let last = items.last {
                let distance = sequence &- last.pid
                if distance == 0 { continue }
                if distance <= 16 {
                    items[items.count - 1].bitmask |= 1 << (distance - 1)
                    continue
                }
            }
            items.append((sequence, 0))
        }
        return items
    }

    public func write(into output: inout [UInt8]) {
        let items = self.items
        RTCPHeader(count: Self.format, packetType: RTCPHeader.transportFeedback, byteLength: 12 + 4 * items.count)
            .write(into: &output)
        output.appendBigEndian(senderSSRC)
        output.appendBigEndian(mediaSSRC)
        for item in items {
            output.appendBigEndian(item.pid)
            output.appendBigEndian(item.bitmask)
        }
    }
}
