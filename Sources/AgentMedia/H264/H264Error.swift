import AgentCore

/// Why H.264 bytes from outside (an access unit the depacketizer assembled, a parameter set in
/// it, a stored file's sample or configuration record) could not be read: ITU-T H.264 §7 syntax,
/// ISO/IEC 14496-15 §5.3 limits.
public enum H264Error: Error, Equatable, Sendable {
    /// The bits ran out: `needed` more were wanted at bit `offset` of an RBSP of `available` bits.
    case truncated(offset: Int, needed: Int, available: Int)
    /// An Exp-Golomb code (§9.1) with more leading zero bits than a 32-bit ue(v) allows (31).
    case expGolombTooLong(leadingZeros: Int)
    /// A syntax element outside the range §7.4 gives it.
    case invalidValue(field: String, value: Int64)
    /// A NAL unit header (§7.3.1) with forbidden_zero_bit set.
    case forbiddenBitSet(header: UInt8)
    /// A NAL unit of another type than the one wanted (Table 7-1: 7 is an SPS, 8 a PPS).
    case unexpectedNALUnitType(expected: UInt8, got: UInt8)
    /// Bytes with no NAL unit in them (no start code, or only empty units).
    case noNALUnits
    /// An access unit larger than ``H264AccessUnit/maxBytes``.
    case accessUnitTooLarge(bytes: Int)
    /// A parameter set longer than the 16-bit length the configuration record gives it.
    case parameterSetTooLarge(bytes: Int)
    /// A configuration record needs one PPS at least and holds 255 at most (an 8-bit count).
    case pictureParameterSetCount(Int)
    /// A configuration record holds one SPS at least and 31 at most (a 5-bit count).
    case sequenceParameterSetCount(Int)
    /// A track with no configuration record (an empty CodecPrivate): its samples' NAL unit
    /// length size and parameter sets are unknown.
    case missingConfigurationRecord
    /// A configuration record whose configurationVersion is not 1 (§5.3.3.1.2: a reader must
    /// not decode a stream of a version it does not know).
    case configurationVersion(UInt8)
    /// A configuration record that ends inside a field or a parameter set it declares.
    case configurationRecordTruncated(ByteRangeError)
    /// A NAL unit length size (lengthSizeMinusOne + 1) other than 1, 2 or 4 (§5.3.3.1.2).
    case nalUnitLengthSize(Int)
    /// A sample whose length field, or the NAL unit it declares, runs past the sample's end: a
    /// cut block, or a length that is not one (`wanted` is the declared length).
    case nalUnitPastSampleEnd(ByteRangeError)
    /// A sample's NAL unit of length 0 at byte `offset` (its length field): a NAL unit has a
    /// header byte at least.
    case emptyNALUnit(offset: Int)
    /// A sample's NAL unit (at byte `offset`, its length field) that holds `00 00 00`, `00 00 01`
    /// or `00 00 02`, or ends in `00`, which emulation prevention rules out (§7.4.1): start codes
    /// cannot frame it in Annex B.
    case nalUnitNotEscaped(offset: Int)
}
