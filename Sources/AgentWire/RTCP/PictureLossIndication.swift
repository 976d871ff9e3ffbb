import AgentCore

/// Picture Loss Indication, PSFB FMT 1 (RFC 4585 §6.3.1): asks a video sender for a keyframe.
///
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |V=2|P|  FMT=1  |   PT=206      |          length=2             |
///     |                  SSRC of packet sender                        |
///     |                  SSRC of media source                         |
///     +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
public struct PictureLossIndication: Equatable, Sendable {
    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32

    public static let format: UInt8 = 1

    public init(senderSSRC: UInt32, mediaSSRC: UInt32) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
    }

    static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> PictureLossIndication {
        guard header.byteLength >= 12 else { throw .truncated(needed: 12, got: header.byteLength) }
        return try RTCPHeader.readBody(of: packet) { reader throws(ByteRangeError) in
            PictureLossIndication(senderSSRC: try reader.readBigEndian(), mediaSSRC: try reader.readBigEndian())
        }
    }

    public func write(into output: inout [UInt8]) {
        RTCPHeader(count: Self.format, packetType: RTCPHeader.payloadFeedback, byteLength: 12).write(into: &output)
        output.appendBigEndian(senderSSRC)
        output.appendBigEndian(mediaSSRC)
    }
}
