/// The AVCDecoderConfigurationRecord (ISO/IEC 14496-15 §5.3.3.1): how an MP4 `avcC` box and a
/// Matroska `V_MPEG4/ISO/AVC` track's CodecPrivate describe an H.264 stream to its decoder.
///
///     configurationVersion u8 = 1
///     AVCProfileIndication u8 | profile_compatibility u8 | AVCLevelIndication u8  (from the SPS)
///     reserved '111111'b | lengthSizeMinusOne u2        (3: 4-byte NAL unit lengths)
///     reserved '111'b    | numOfSequenceParameterSets u5
///       sequenceParameterSetLength u16 | SPS NAL unit     × numOfSequenceParameterSets
///     numOfPictureParameterSets u8
///       pictureParameterSetLength u16 | PPS NAL unit      × numOfPictureParameterSets
///     if AVCProfileIndication ∈ {100, 110, 122, 144}:
///       reserved '111111'b | chroma_format u2
///       reserved '11111'b  | bit_depth_luma_minus8 u3
///       reserved '11111'b  | bit_depth_chroma_minus8 u3
///       numOfSequenceParameterSetExt u8 = 0
///
/// A real-time sender has one SPS and its PPSs (``init(sequenceParameterSet:pictureParameterSets:)``);
/// a stored track may have several SPSs and 1- or 2-byte NAL unit lengths
/// (``init(parsing:)``). The parameter sets are NAL units as sent (header byte included,
/// emulation prevention bytes kept).
public struct AVCDecoderConfigurationRecord: Equatable, Sendable {
    /// The SPSs, one at least; the first gives the record's profile and level.
    public let sequenceParameterSets: [[UInt8]]
    public let pictureParameterSets: [[UInt8]]
    /// What the first SPS says: profile, level, chroma format, bit depth, size.
    public let parsedSequenceParameterSet: H264SequenceParameterSet
    /// lengthSizeMinusOne + 1: the bytes of each NAL unit's length in the track's samples.
    public let nalUnitLengthSize: Int

    /// The first SPS.
    public var sequenceParameterSet: [UInt8] { sequenceParameterSets.first ?? [] }

    /// NAL unit lengths in samples are 4 bytes (lengthSizeMinusOne = 3), as
    /// ``H264AccessUnit/sample(insertingParameterSetsFrom:)`` writes them.
    public static let lengthSize = 4
    /// The NAL unit length sizes §5.3.3.1.2 allows (lengthSizeMinusOne 0, 1 or 3).
    public static let lengthSizes: Set<Int> = [1, 2, 4]
    /// numOfSequenceParameterSets is 5 bits.
    public static let maxSequenceParameterSets = 31

    /// The profiles for which the record ends in the chroma format and bit depth fields.
    static let profilesWithExtension: Set<UInt8> = [100, 110, 122, 144]

    public init(sequenceParameterSet: [UInt8], pictureParameterSets: [[UInt8]]) throws(H264Error) {
        try self.init(sequenceParameterSets: [sequenceParameterSet], pictureParameterSets: pictureParameterSets)
    }

    /// Checks each set's NAL unit type and size, and reads every SPS.
    public init(sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]],
                nalUnitLengthSize: Int = lengthSize) throws(H264Error) {
        guard Self.lengthSizes.contains(nalUnitLengthSize) else { throw .nalUnitLengthSize(nalUnitLengthSize) }
        guard (1...Self.maxSequenceParameterSets).contains(sequenceParameterSets.count) else {
            throw .sequenceParameterSetCount(sequenceParameterSets.count)
        }
        guard (1...255).contains(pictureParameterSets.count) else { throw .pictureParameterSetCount(pictureParameterSets.count) }
        var parsed: [H264SequenceParameterSet] = []
        for sps in sequenceParameterSets {
            guard sps.count <= Int(UInt16.max) else { throw .parameterSetTooLarge(bytes: sps.count) }
            parsed.append(try H264SequenceParameterSet(nalUnit: sps))
        }
        for pps in pictureParameterSets {
            guard let header = pps.first else { throw .truncated(offset: 0, needed: 8, available: 0) }
            guard header & 0x80 == 0 else { throw .forbiddenBitSet(header: header) }
            let type = H264NALUnitType.bits(of: header)
            guard type == H264NALUnitType.pictureParameterSet.rawValue else {
                throw .unexpectedNALUnitType(expected: H264NALUnitType.pictureParameterSet.rawValue, got: type)
            }
            guard pps.count <= Int(UInt16.max) else { throw .parameterSetTooLarge(bytes: pps.count) }
        }
        // The count check above made `parsed` non-empty.
        guard let first = parsed.first else { throw .sequenceParameterSetCount(0) }
        parsedSequenceParameterSet = first
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
        self.nalUnitLengthSize = nalUnitLengthSize
    }

    /// The record's bytes.
    public var bytes: [UInt8] {
        let sps = parsedSequenceParameterSet
        var out: [UInt8] = [1, sps.profileIDC, sps.constraintFlags, sps.levelIDC]
        // The init bounded the length size to 1...4, each set's length to 16 bits, the SPS
        // count to 5 bits and the PPS count to 8.
        out.append(0xFC | UInt8(truncatingIfNeeded: nalUnitLengthSize - 1))
        out.append(0xE0 | UInt8(truncatingIfNeeded: sequenceParameterSets.count))
        for sps in sequenceParameterSets {
            out.appendBigEndian(UInt16(truncatingIfNeeded: sps.count))
            out += sps
        }
        out.append(UInt8(truncatingIfNeeded: pictureParameterSets.count))
        for pps in pictureParameterSets {
            out.appendBigEndian(UInt16(truncatingIfNeeded: pps.count))
            out += pps
        }
        if Self.profilesWithExtension.contains(sps.profileIDC) {
            // chroma_format_idc ≤ 3 and bit depths 8…14 were checked by the SPS parser.
            out.append(0xFC | UInt8(truncatingIfNeeded: sps.chromaFormatIDC))
            out.append(0xF8 | UInt8(truncatingIfNeeded: sps.bitDepthLuma - 8))
            out.append(0xF8 | UInt8(truncatingIfNeeded: sps.bitDepthChroma - 8))
            out.append(0)
        }
        return out
    }
}
