/// Finds the NAL units of H.264 bytes in the byte stream format (ITU-T H.264 Annex B): each
/// NAL unit follows a start code, three bytes or four (with the zero_byte of B.1.1):
///
///     [00…] 00 00 01 | NAL unit | [00 …] 00 00 00 01 | NAL unit | [00…]
///
/// A NAL unit never holds 00 00 00, 00 00 01 or 00 00 02 (§7.4.1: the encoder breaks them with
/// an emulation prevention 03) and never ends in 00, so each 00 00 01 starts a unit and zero
/// bytes before it (a four-byte start code, trailing_zero_8bits) belong to the framing. Bytes
/// before the first start code are not a NAL unit (B.2: leading_zero_8bits) and are skipped, as
/// are empty units (two start codes in a row). Every range lies inside the bytes given.
public enum H264AnnexB {
    /// The start code written before each NAL unit: the four-byte form, which B.1.2 wants
    /// before parameter sets and an access unit's first NAL unit.
    public static let startCode: [UInt8] = [0, 0, 0, 1]

    /// The ranges of `bytes` holding NAL units (header byte included, start codes and trailing
    /// zeros not), in stream order.
    public static func nalUnitRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var unitStart: Int?
        var index = 0
        var zeros = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 1, zeros >= 2 {
                // index - zeros is where this start code's zeros began: the unit before ends there.
                if let start = unitStart { appendTrimmed(start..<(index - zeros), of: bytes, to: &ranges) }
                unitStart = index + 1
                zeros = 0
            } else {
                zeros = byte == 0 ? zeros + 1 : 0
            }
            index += 1
        }
        if let start = unitStart { appendTrimmed(start..<bytes.count, of: bytes, to: &ranges) }
        return ranges
    }

    /// The NAL units of `bytes`, as slices of it.
    public static func nalUnits(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        nalUnitRanges(in: bytes).map { bytes[$0] }
    }

    /// The nal_unit_type (§7.3.1, Table 7-1) of a NAL unit's header byte.
    public static func nalUnitType(ofHeader header: UInt8) -> UInt8 { header & 0x1F }

    /// Adds `range` less its trailing zero bytes, unless nothing is left.
    private static func appendTrimmed(_ range: Range<Int>, of bytes: [UInt8], to ranges: inout [Range<Int>]) {
        var end = range.upperBound
        while end > range.lowerBound, bytes[end - 1] == 0 { end -= 1 }
        if end > range.lowerBound { ranges.append(range.lowerBound..<end) }
    }
}
