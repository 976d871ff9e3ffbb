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
/// Built from one SPS and its PPSs, as a real-time sender has them; the parameter sets are NAL
/// units as sent (header byte included, emulation prevention bytes kept).
public struct AVCDecoderConfigurationRecord: Equatable, Sendable {
    public let sequenceParameterSet: [UInt8]
    public let pictureParameterSets: [[UInt8]]
    /// What the SPS says: profile, level, chroma format, bit depth, size.
    public let parsedSequenceParameterSet: H264SequenceParameterSet

    /// NAL unit lengths in samples are 4 bytes (lengthSizeMinusOne = 3), as
    /// ``H264AccessUnit/sample(insertingParameterSetsFrom:)`` writes them.
    public static let lengthSize = 4

    /// The profiles for which the record ends in the chroma format and bit depth fields.
    static let profilesWithExtension: Set<UInt8> = [100, 110, 122, 144]

    public init(sequenceParameterSet: [UInt8], pictureParameterSets: [[UInt8]]) throws(H264Error) {
        guard sequenceParameterSet.count <= Int(UInt16.max) else { throw .parameterSetTooLarge(bytes: sequenceParameterSet.count) }
        guard (1...255).contains(pictureParameterSets.count) else { throw .pictureParameterSetCount(pictureParameterSets.count) }
        for pps in pictureParameterSets {
            guard let header = pps.first else { throw .truncated(offset: 0, needed: 8, available: 0) }
            guard header & 0x80 == 0 else { throw .forbiddenBitSet(header: header) }
            let type = H264NALUnitType.bits(of: header)
            guard type == H264NALUnitType.pictureParameterSet.rawValue else {
                throw .unexpectedNALUnitType(expected: H264NALUnitType.pictureParameterSet.rawValue, got: type)
            }
            guard pps.count <= Int(UInt16.max) else { throw .parameterSetTooLarge(bytes: pps.count) }
        }
        parsedSequenceParameterSet = try H264SequenceParameterSet(nalUnit: sequenceParameterSet)
        self.sequenceParameterSet = sequenceParameterSet
        self.pictureParameterSets = pictureParameterSets
    }

    /// The record's bytes.
    public var bytes: [UInt8] {
        let sps = parsedSequenceParameterSet
        var out: [UInt8] = [1, sps.profileIDC, sps.constraintFlags, sps.levelIDC]
        out.append(0xFC | UInt8(Self.lengthSize - 1))
        out.append(0xE0 | 1)
        // The init bounded each length to 16 bits and the PPS count to 8.
        out.appendBigEndian(UInt16(truncatingIfNeeded: sequenceParameterSet.count))
        out += sequenceParameterSet
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
