/// How a bad H.264 RTP payload (RFC 6184 §5) reads to a person.
extension H264PayloadError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyPayload: "the payload is empty"
        case .interleavedModePacket(let type): "packet type \(type) belongs to the interleaved mode, which was not negotiated"
        case .undefinedPacketType(let type): "packet type \(type) is not defined"
        case .emptyAggregation: "the STAP-A holds no NAL unit"
        case .truncatedAggregationUnit(let offset): "the STAP-A aggregation unit at byte \(offset) is truncated"
        case .nestedPacketType(let type): "an aggregation or fragmentation unit carries packet type \(type)"
        case .truncatedFragmentationUnit: "the FU-A is shorter than its two header bytes"
        case .fragmentStartsAndEnds: "the FU-A has both the start and the end bit set"
        }
    }
}
