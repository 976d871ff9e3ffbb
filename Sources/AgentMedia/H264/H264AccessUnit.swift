import AgentCore

/// One coded picture's NAL units (an access unit, ITU-T H.264 §7.4.1.2) in the Annex B form the
/// RTP depacketizer hands over and the packetizer takes, and the same NAL units as a
/// Matroska/MP4 sample, both ways.
///
/// A sample (ISO/IEC 14496-15 §5.3.2) gives each NAL unit a big-endian length instead of a
/// start code; with the 4-byte lengths of ``AVCDecoderConfigurationRecord/lengthSize`` (a
/// stored track's record may say 1 or 2):
///
///     Annex B  00 00 00 01 | SPS | 00 00 01 | PPS | 00 00 00 01 | IDR slice
///     sample   len(SPS) u32 | SPS | len(PPS) u32 | PPS | len(slice) u32 | IDR slice
///
/// Parameter sets in a sample are allowed, and kept: a decoder that meets a new SPS in band
/// follows it. A sender that sends them once, not before each IDR, leaves later IDRs
/// undecodable on their own (a seek, a cut file); ``sample(insertingParameterSetsFrom:)`` puts
/// the record's sets in front of such an IDR. A file's track usually has them only in its
/// record (CodecPrivate), and a receiver joining a stream needs them in band before each IDR:
/// ``insertingParameterSets(from:)`` does the same in Annex B form.
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

    /// Reads a sample whose NAL units each follow a big-endian length of `lengthSize` bytes
    /// (the record's ``AVCDecoderConfigurationRecord/nalUnitLengthSize``), into Annex B form with
    /// 4-byte start codes. A length that runs past the sample, a zero length, a NAL unit that
    /// start codes cannot frame (see ``AnnexBScanner/canFrame(_:)``) or an Annex B form past
    /// ``maxBytes`` is an error.
    public init(sample: [UInt8], lengthSize: Int) throws(H264Error) {
        guard AVCDecoderConfigurationRecord.lengthSizes.contains(lengthSize) else { throw .nalUnitLengthSize(lengthSize) }
        guard sample.count <= Self.maxBytes else { throw .accessUnitTooLarge(bytes: sample.count) }
        var annexB: [UInt8] = []
        var ranges: [Range<Int>] = []
        try ByteReader.read(sample) { (reader: inout ByteReader) throws(H264Error) in
            while !reader.isAtEnd {
                let offset = reader.offset
                let length: Int
                let nalUnit: UnsafeRawBufferPointer
                do throws(ByteRangeError) {
                    // At most 4 bytes: the length fits.
                    length = try reader.readBytes(lengthSize).reduce(0) { $0 << 8 | Int($1) }
                    nalUnit = try reader.readBytes(length)
                } catch {
                    throw .nalUnitPastSampleEnd(error)
                }
                guard length > 0 else { throw .emptyNALUnit(offset: offset) }
                guard AnnexBScanner.canFrame(nalUnit) else { throw .nalUnitNotEscaped(offset: offset) }
                // The header byte; canFrame made the unit non-empty.
                let header = nalUnit.first ?? 0
                guard header & 0x80 == 0 else { throw .forbiddenBitSet(header: header) }
                let size = annexB.count + AnnexBScanner.startCode.count + nalUnit.count
                guard size <= Self.maxBytes else { throw .accessUnitTooLarge(bytes: size) }
                annexB += AnnexBScanner.startCode
                ranges.append(annexB.count..<size)
                annexB.append(contentsOf: nalUnit)
            }
        }
        guard !ranges.isEmpty else { throw .noNALUnits }
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
        let units = nalUnits(insertingParameterSetsFrom: record)
        var out: [UInt8] = []
        out.reserveCapacity(units.reduce(0) { $0 + 4 + $1.count })
        // Every length is below maxBytes (the init's bound, or a record's 16-bit bound).
        for unit in units {
            out.appendBigEndian(UInt32(truncatingIfNeeded: unit.count))
            out += unit
        }
        return out
    }

    /// The access unit in Annex B form, self-contained: when it is an IDR that lacks an SPS or
    /// a PPS, `record`'s are put first (after an access unit delimiter), as
    /// ``sample(insertingParameterSetsFrom:)`` does. Throws when that makes it larger than
    /// ``maxBytes``.
    public func insertingParameterSets(from record: AVCDecoderConfigurationRecord?) throws(H264Error) -> H264AccessUnit {
        let units = nalUnits(insertingParameterSetsFrom: record)
        guard units.count > nalUnitRanges.count else { return self }
        let size = units.reduce(0) { $0 + AnnexBScanner.startCode.count + $1.count }
        guard size <= Self.maxBytes else { throw .accessUnitTooLarge(bytes: size) }
        var out: [UInt8] = []
        var ranges: [Range<Int>] = []
        out.reserveCapacity(size)
        for unit in units {
            out += AnnexBScanner.startCode
            ranges.append(out.count..<(out.count + unit.count))
            out += unit
        }
        return H264AccessUnit(annexB: out, nalUnitRanges: ranges)
    }

    /// Every part is a NAL unit already checked (this access unit's, or a record's).
    private init(annexB: [UInt8], nalUnitRanges: [Range<Int>]) {
        self.annexB = annexB
        self.nalUnitRanges = nalUnitRanges
    }

    /// The NAL units in order, with `record`'s parameter sets put in after the access unit
    /// delimiter when this is an IDR without its own.
    private func nalUnits(insertingParameterSetsFrom record: AVCDecoderConfigurationRecord?) -> [ArraySlice<UInt8>] {
        var inserted: [ArraySlice<UInt8>] = []
        if let record, isIDR {
            if sequenceParameterSet == nil { inserted += record.sequenceParameterSets.map { $0[...] } }
            if pictureParameterSets.isEmpty { inserted += record.pictureParameterSets.map { $0[...] } }
        }
        let units = nalUnits
        guard !inserted.isEmpty else { return units }
        let leading = units.first.map { H264NALUnitType(header: $0.first ?? 0) == .accessUnitDelimiter } == true ? 1 : 0
        return Array(units.prefix(leading)) + inserted + units.dropFirst(leading)
    }
}
