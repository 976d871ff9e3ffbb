/// One coded picture's NAL units (an access unit, ITU-T H.264 §7.4.1.2) in the Annex B form the
/// RTP depacketizer hands over, and the same NAL units as a Matroska/MP4 sample.
///
/// A sample (ISO/IEC 14496-15 §5.3.2) gives each NAL unit a big-endian length instead of a
/// start code; with the 4-byte lengths of ``AVCDecoderConfigurationRecord/lengthSize``:
///
///     Annex B  00 00 00 01 | SPS | 00 00 01 | PPS | 00 00 00 01 | IDR slice
///     sample   len(SPS) u32 | SPS | len(PPS) u32 | PPS | len(slice) u32 | IDR slice
///
/// Parameter sets in a sample are allowed, and kept: a decoder that meets a new SPS in band
/// follows it. A sender that sends them once, not before each IDR, leaves later IDRs
/// undecodable on their own (a seek, a cut file); ``sample(insertingParameterSetsFrom:)`` puts
/// the record's sets in front of such an IDR.
public struct H264AccessUnit: Sendable {
    /// The largest access unit accepted: far above any real-time frame (Level 6.2's largest
    /// compressed picture is ~30 MB only at 800 Mbit/s), and small enough that every NAL
    /// unit's length fits its 4-byte field.
    public static let maxBytes = 8 << 20

    public let annexB: [UInt8]
    /// Where each NAL unit lies in ``annexB``.
    public let nalUnitRanges: [Range<Int>]


    public init(annexB: [UInt8]) throws(H264Error) {
        guard annexB.count <= Self.maxBytes else { throw .accessUnitTooLarge(bytes: annexB.count) }
        let ranges = AnnexBScanner.nalUnits(in: annexB)
        guard !ranges.isEmpty else { throw .noNALUnits }
        for range in ranges where annexB[range.lowerBound] & 0x80 != 0 {
            throw .forbiddenBitSet(header: annexB[range.lowerBound])
        }
        self.annexB = annexB
        nalUnitRanges = ranges
    }

    public var nalUnits: [ArraySlice<UInt8>] { nalUnitRanges.map { annexB[$0] } }

    private func type(of range: Range<Int>) -> H264NALUnitType? {
        H264NALUnitType(header: annexB[range.lowerBound])
    }

    /// Whether the access unit holds an IDR picture (§3.69): decoding can start at it, so it
    /// is a keyframe to a container.
    public var isIDR: Bool { nalUnitRanges.contains { type(of: $0) == .idrSlice } }

    /// The first SPS in the access unit, if any.
    public var sequenceParameterSet: ArraySlice<UInt8>? {
        nalUnitRanges.first { type(of: $0) == .sequenceParameterSet }.map { annexB[$0] }
    }

    /// The PPSs in the access unit, in order.
    public var pictureParameterSets: [ArraySlice<UInt8>] {
        nalUnitRanges.filter { type(of: $0) == .pictureParameterSet }.map { annexB[$0] }
    }

    /// The configuration record of this access unit's own SPS and PPSs, or nil when it does
    /// not carry both.
    public func configurationRecord() throws(H264Error) -> AVCDecoderConfigurationRecord? {
        guard let sps = sequenceParameterSet else { return nil }
        let pps = pictureParameterSets
        guard !pps.isEmpty else { return nil }
        return try AVCDecoderConfigurationRecord(sequenceParameterSet: Array(sps), pictureParameterSets: pps.map { Array($0) })
    }

    /// The access unit as a sample of 4-byte length-prefixed NAL units. When it is an IDR that
    /// lacks an SPS or a PPS and `record` is given, the record's are put first (after an access
    /// unit delimiter, which §7.4.1.2.3 wants first).
    public func sample(insertingParameterSetsFrom record: AVCDecoderConfigurationRecord? = nil) -> [UInt8] {
        var inserted: [[UInt8]] = []
        if let record, isIDR {
            if sequenceParameterSet == nil { inserted.append(record.sequenceParameterSet) }
            if pictureParameterSets.isEmpty { inserted += record.pictureParameterSets }
        }
        var out: [UInt8] = []
        out.reserveCapacity(annexB.count + inserted.reduce(0) { $0 + $1.count + 4 } + 4 * nalUnitRanges.count)
        var ranges = nalUnitRanges[...]
        if let first = ranges.first, type(of: first) == .accessUnitDelimiter {
            Self.appendLengthPrefixed(annexB[first], to: &out)
            ranges = ranges.dropFirst()
        }
        for parameterSet in inserted { Self.appendLengthPrefixed(parameterSet[...], to: &out) }
        for range in ranges { Self.appendLengthPrefixed(annexB[range], to: &out) }
        return out
    }

    /// Every length is below ``maxBytes`` (the init's bound, or a record's 16-bit bound).
    private static func appendLengthPrefixed(_ nalUnit: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out.appendBigEndian(UInt32(truncatingIfNeeded: nalUnit.count))
        out += nalUnit
    }
}
