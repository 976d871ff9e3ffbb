/// Why an H.264 RTP payload (RFC 6184 §5) cannot be depacketized. agentd negotiates
/// packetization-mode 1 (non-interleaved, §6.3) and mode 0, so single NAL unit packets, STAP-A
/// and FU-A are all it accepts.
public enum H264PayloadError: Error, Equatable, Sendable {
    case emptyPayload
    /// STAP-B (25), MTAP16 (26), MTAP24 (27) or FU-B (29): packets of the interleaved mode
    /// (packetization-mode 2, §6.4), which we never negotiate.
    case interleavedModePacket(type: UInt8)
    /// A payload header of type 0, 30 or 31, which neither H.264 nor RFC 6184 (§5.2) defines.
    case undefinedPacketType(UInt8)
    /// A STAP-A with no aggregation unit after its header (§5.7.1).
    case emptyAggregation
    /// The aggregation unit at `offset` of a STAP-A has a size field that is cut off, is zero
    /// (a NAL unit has at least its header byte) or runs past the payload (§5.7.1).
    case truncatedAggregationUnit(offset: Int)
    /// An aggregation unit or fragmentation unit carrying type `type` (0 or 24-31): aggregation
    /// packets hold NAL units (§5.7), and only a NAL unit is fragmented, never an aggregation or
    /// another fragmentation packet (§5.8).
    case nestedPacketType(UInt8)
    /// A FU-A shorter than its FU indicator and FU header (§5.8).
    case truncatedFragmentationUnit
    /// A FU-A with both the Start and End bits: §5.8 forbids sending a whole NAL unit in one FU.
    case fragmentStartsAndEnds
}
