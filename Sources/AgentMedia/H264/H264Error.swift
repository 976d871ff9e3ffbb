/// Why H.264 bytes from outside (an access unit the depacketizer assembled, a parameter set in
/// it) could not be read: ITU-T H.264 §7 syntax, ISO/IEC 14496-15 §5.3 limits.
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
}
