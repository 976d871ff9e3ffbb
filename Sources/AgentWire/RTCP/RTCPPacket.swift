/// One packet of a compound RTCP datagram (RFC 3550 §6.1), decoded as far as agentd needs.
/// Types we do not act on (APP, REMB, transport-wide CC, …) are kept as `.other` so
/// they can be counted, not dropped as errors.
public enum RTCPPacket: Equatable, Sendable {
    case senderReport(SenderReport)
    case receiverReport(ReceiverReport)
    case nack(GenericNACK)
    case pictureLoss(PictureLossIndication)
    case fullIntraRequest(FullIntraRequest)
    case goodbye(Goodbye)
    case sourceDescription(SourceDescription)
    case other(packetType: UInt8, format: UInt8)

    /// Splits and decodes a compound datagram. A malformed packet fails the whole datagram, as
    /// RFC 3550 §6.4 validity checks ask.
    public static func parseCompound(_ bytes: UnsafeRawBufferPointer) throws(RTCPError) -> [RTCPPacket] {
        var packets: [RTCPPacket] = []
        var offset = 0
        while offset < bytes.count {
            let header = try RTCPHeader.parse(bytes, at: offset)
            let isLast = offset + header.byteLength == bytes.count
            if header.padding {
                // Only the last packet of a compound may carry padding (§6.4.1).
                guard isLast else { throw .badPadding(0) }
                let padding = Int(bytes[offset + header.byteLength - 1])
                guard padding >= 1, padding <= header.byteLength - RTCPHeader.length else { throw .badPadding(padding) }
            }
            packets.append(try parse(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + header.byteLength)]), header: header))
            offset += header.byteLength
        }
        return packets
    }

    public static func parseCompound(_ bytes: [UInt8]) throws(RTCPError) -> [RTCPPacket] {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(RTCPError) in try parseCompound(buffer) } }
        return try result.get()
    }

    /// Decodes one packet; `packet` holds that packet alone, header included.
    private static func parse(_ packet: UnsafeRawBufferPointer, header: RTCPHeader) throws(RTCPError) -> RTCPPacket {
        switch (header.packetType, header.count) {
        case (RTCPHeader.senderReport, _):
            return .senderReport(try SenderReport.parse(packet, header: header))
        case (RTCPHeader.receiverReport, _):
            return .receiverReport(try ReceiverReport.parse(packet, header: header))
        case (RTCPHeader.goodbye, _):
            return .goodbye(try Goodbye.parse(packet, header: header))
        case (RTCPHeader.sourceDescription, _):
            return .sourceDescription(try SourceDescription.parse(packet, header: header))
        case (RTCPHeader.transportFeedback, GenericNACK.format):
            return .nack(try GenericNACK.parse(packet, header: header))
        case (RTCPHeader.payloadFeedback, PictureLossIndication.format):
            return .pictureLoss(try PictureLossIndication.parse(packet, header: header))
        case (RTCPHeader.payloadFeedback, FullIntraRequest.format):
            return .fullIntraRequest(try FullIntraRequest.parse(packet, header: header))
        default:
            return .other(packetType: header.packetType, format: header.count)
        }
    }

    public func write(into output: inout [UInt8]) {
        switch self {
        case .senderReport(let packet): packet.write(into: &output)
        case .receiverReport(let packet): packet.write(into: &output)
        case .nack(let packet): packet.write(into: &output)
        case .pictureLoss(let packet): packet.write(into: &output)
        case .fullIntraRequest(let packet): packet.write(into: &output)
        case .goodbye(let packet): packet.write(into: &output)
        case .sourceDescription(let packet): packet.write(into: &output)
        case .other: break
        }
    }
}
