/// Turns H.264 RTP payloads (RFC 6184, packetization-mode 1 and its subset mode 0) back into
/// the Annex B byte stream (ITU-T H.264 Annex B) decoders and muxers take: a start code before
/// every NAL unit. It knows nothing of ordering or loss: the jitter buffer hands it the packets
/// of one access unit in sequence order.
///
/// Every payload starts with a one-byte payload header laid out like a NAL unit header
/// (§5.3, ``H264NALUnitType``); its type says which of three structures follows (§5.6-5.8):
///
///     Single NAL unit packet (types 1-23): the NAL unit itself.
///     +---------------+------------------------------+
///     |F|NRI|  Type   |  NAL unit payload ...        |
///     +---------------+------------------------------+
///
///     STAP-A (type 24): aggregation units, each a 16-bit size (network order, counting the
///     NAL unit header but not the size) and one whole NAL unit.
///     +---------------+---------------+---------------+--------------+---------------+...
///     |F|NRI|   24    |  NALU 1 size (16 bits)        | NALU 1 header| NALU 1 data   |...
///     +---------------+---------------+---------------+--------------+---------------+...
///
///     FU-A (type 28): one piece of a NAL unit too large for a packet.
///     +---------------+---------------+------------------------------+
///     |F|NRI|   28    |S|E|R|  Type   |  FU payload ...              |
///     +---------------+---------------+------------------------------+
///      FU indicator    FU header
///
/// A FU-A with S=1 opens the NAL unit: its header is rebuilt from the indicator's F and NRI and
/// the FU header's type (§5.8); the header byte itself is not sent. Later pieces add their
/// payload only, so the pieces of one NAL unit concatenated in order give it back whole.
public enum H264Depacketizer {
    /// How a payload carries its NAL units.
    public enum Structure: Equatable, Sendable {
        case singleNALUnit
        /// A STAP-A of `count` NAL units.
        case aggregation(count: Int)
        /// A FU-A piece; `start` and `end` are its S and E bits.
        case fragment(start: Bool, end: Bool)
    }

    /// What one RTP payload contributes to its access unit.
    public struct Fragment: Equatable, Sendable {
        public var structure: Structure
        /// The type of the first NAL unit the payload carries, opens or continues; nil for a
        /// reserved value (passed through, since H.264 says decoders ignore such units).
        public var firstNALUnitType: H264NALUnitType?
        /// The payload begins an access unit: its first NAL unit is whole or opened here and is
        /// an AUD, SEI, SPS, PPS (or another type that opens one, H.264 §7.4.1.2.3), or a slice
        /// with first_mb_in_slice = 0 (the first slice of a picture, §7.4.3). The payload alone
        /// cannot tell an SPS that opens an access unit from one after its delimiter; the
        /// jitter buffer does not split at such starts (frames end at the marker or a new
        /// timestamp, RFC 6184 §5.1).
        public var startsAccessUnit: Bool
        /// The payload carries an IDR slice (type 5), whole, aggregated or a piece of one.
        public var containsIDRSlice: Bool
    }

    /// One NAL unit, whole or a piece, as the payload carries it.
    struct Piece: Equatable {
        /// The NAL unit header to write before `body`, or nil for a FU-A piece that continues a
        /// NAL unit opened by an earlier packet.
        var header: UInt8?
        /// The five type bits of the NAL unit.
        var type: UInt8
        /// Where the NAL unit's bytes after its header lie in the payload.
        var body: Range<Int>
    }

    public static func fragment(of payload: UnsafeRawBufferPointer) throws(H264PayloadError) -> Fragment {
        let (structure, pieces) = try parse(payload)
        var startsAccessUnit = false
        if let first = pieces.first, first.header != nil, let type = H264NALUnitType(rawValue: first.type) {
            // first_mb_in_slice is ue(v) (§7.3.3, §9.1): the value 0 is the single bit 1. The byte
            // after the header cannot be an emulation prevention byte (that needs two zero bytes
            // before it, and the header is not zero).
            let firstMacroblockIsZero = !first.body.isEmpty && payload[first.body.lowerBound] & 0x80 != 0
            startsAccessUnit = type.opensAccessUnit || (type.startsWithFirstMacroblock && firstMacroblockIsZero)
        }
        return Fragment(
            structure: structure, firstNALUnitType: pieces.first.flatMap { H264NALUnitType(rawValue: $0.type) },
            startsAccessUnit: startsAccessUnit,
            containsIDRSlice: pieces.contains { $0.type == H264NALUnitType.idrSlice.rawValue })
    }

    /// Appends what `payload` adds to its access unit in Annex B form: a start code and the
    /// NAL unit for each whole or opened NAL unit, the bare bytes for a continued one.
    public static func appendAnnexB(of payload: UnsafeRawBufferPointer, to output: inout [UInt8]) throws(H264PayloadError) {
        let (_, pieces) = try parse(payload)
        for piece in pieces {
            if let header = piece.header {
                output.append(contentsOf: AnnexBScanner.startCode)
                output.append(header)
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[piece.body]))
        }
    }

    /// The structure and NAL units of `payload`, every size checked against it.
    static func parse(_ payload: UnsafeRawBufferPointer) throws(H264PayloadError) -> (Structure, [Piece]) {
        guard let payloadHeader = payload.first else { throw .emptyPayload }
        let type = H264NALUnitType.bits(of: payloadHeader)
        switch type {
        case 1...23:
            return (.singleNALUnit, [Piece(header: payloadHeader, type: type, body: 1..<payload.count)])
        case H264NALUnitType.stapA.rawValue:
            let pieces = try aggregationUnits(of: payload)
            return (.aggregation(count: pieces.count), pieces)
        case H264NALUnitType.fuA.rawValue:
            guard payload.count >= 2 else { throw .truncatedFragmentationUnit }
            let fuHeader = payload[1]
            let start = fuHeader & 0x80 != 0
            let end = fuHeader & 0x40 != 0
            guard !(start && end) else { throw .fragmentStartsAndEnds }
            let fragmentType = H264NALUnitType.bits(of: fuHeader)
            guard (1...23).contains(fragmentType) else { throw .nestedPacketType(fragmentType) }
            // The R bit (0x20) must be ignored by a receiver (§5.8).
            let header = start ? (payloadHeader & 0xE0) | fragmentType : nil
            return (.fragment(start: start, end: end), [Piece(header: header, type: fragmentType, body: 2..<payload.count)])
        case H264NALUnitType.stapB.rawValue, H264NALUnitType.mtap16.rawValue, H264NALUnitType.mtap24.rawValue,
            H264NALUnitType.fuB.rawValue:
            throw .interleavedModePacket(type: type)
        default:
            throw .undefinedPacketType(type)
        }
    }

    /// The NAL units of a STAP-A (§5.7.1), after its one-byte header.
    private static func aggregationUnits(of payload: UnsafeRawBufferPointer) throws(H264PayloadError) -> [Piece] {
        var pieces: [Piece] = []
        var offset = 1
        while offset < payload.count {
            guard payload.count - offset >= 2 else { throw .truncatedAggregationUnit(offset: offset) }
            let size = Int(payload[offset]) << 8 | Int(payload[offset + 1])
            let start = offset + 2
            guard size > 0, size <= payload.count - start else { throw .truncatedAggregationUnit(offset: offset) }
            let header = payload[start]
            let type = H264NALUnitType.bits(of: header)
            guard (1...23).contains(type) else { throw .nestedPacketType(type) }
            pieces.append(Piece(header: header, type: type, body: start + 1..<start + size))
            offset = start + size
        }
        guard !pieces.isEmpty else { throw .emptyAggregation }
        return pieces
    }
}
