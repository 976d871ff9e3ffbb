/// How unreadable H.264 bytes read to a person.
extension H264Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncated(let offset, let needed, let available):
            "the H.264 data is truncated: \(needed) more bits wanted at bit \(offset) of \(available)"
        case .expGolombTooLong(let zeros): "an Exp-Golomb code has \(zeros) leading zero bits (31 at most)"
        case .invalidValue(let field, let value): "the H.264 \(field) is \(value), out of its range"
        case .forbiddenBitSet(let header): "a NAL unit header (\(header)) has its forbidden bit set"
        case .unexpectedNALUnitType(let expected, let got): "a NAL unit of type \(got) where type \(expected) was wanted"
        case .noNALUnits: "the H.264 data holds no NAL unit"
        case .accessUnitTooLarge(let bytes): "an H.264 access unit of \(bytes) bytes is too large"
        case .parameterSetTooLarge(let bytes): "an H.264 parameter set of \(bytes) bytes is too large (65535 at most)"
        case .pictureParameterSetCount(let count): "\(count) picture parameter sets (1 to 255 allowed)"
        case .sequenceParameterSetCount(let count): "\(count) sequence parameter sets (1 to 31 allowed)"
        case .missingConfigurationRecord: "the H.264 track has no configuration record (CodecPrivate is empty)"
        case .configurationVersion(let version): "the H.264 configuration record has version \(version) (1 wanted)"
        case .configurationRecordTruncated(let range): "the H.264 configuration record is truncated: \(range)"
        case .nalUnitLengthSize(let size): "NAL unit lengths of \(size) bytes (1, 2 or 4 allowed)"
        case .nalUnitPastSampleEnd(let range): "a NAL unit runs past the end of its H.264 sample: \(range)"
        case .emptyNALUnit(let offset): "the H.264 sample has a NAL unit of length 0 at byte \(offset)"
        case .nalUnitNotEscaped(let offset):
            "the H.264 sample's NAL unit at byte \(offset) holds a start code or ends in a zero byte (no emulation prevention)"
        }
    }
}
