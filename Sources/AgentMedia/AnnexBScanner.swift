/// Splits an H.264 byte stream in the Annex B format into its NAL units.
///
/// ITU-T H.264 Annex B.1: each NAL unit is preceded by a start code prefix `00 00 01`,
/// optionally with a `zero_byte` before it (the four-byte form `00 00 00 01`), and may be
/// followed by `trailing_zero_8bits`. A NAL unit never contains `00 00 00`, `00 00 01` or
/// `00 00 02` (§7.4.1: emulation prevention inserts `03`), and its last byte is never `00`, so
/// zero bytes before a start code or at the end belong to the framing, not to the NAL unit.
///
/// Bytes before the first start code are not a NAL unit (B.2: only `leading_zero_8bits` may
/// come there) and are skipped, as are empty NAL units (two start codes in a row).
public enum AnnexBScanner {
    /// The four-byte start code written before every NAL unit (B.1.1: `zero_byte` +
    /// `start_code_prefix_one_3bytes`, required before SPS, PPS and an access unit's first NAL unit).
    public static let startCode: [UInt8] = [0, 0, 0, 1]

    /// Where the NAL units of `bytes` lie, in order, without start codes or trailing zeros.
    public static func nalUnits(in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var units: [Range<Int>] = []
        var unitStart: Int?
        var index = 0
        // A start code prefix is three bytes ending in 01. When the third byte looked at is
        // above 1, no prefix can begin at any of the three positions, so all three are skipped.
        while index + 2 < bytes.count {
            let third = bytes[index + 2]
            if third > 1 {
                index += 3
            } else if third == 1, bytes[index + 1] == 0, bytes[index] == 0 {
                if let unitStart { append(unitStart..<index, of: bytes, to: &units) }
                unitStart = index + 3
                index += 3
            } else {
                index += 1
            }
        }
        if let unitStart { append(unitStart..<bytes.count, of: bytes, to: &units) }
        return units
    }

    /// The same for an array.
    public static func nalUnits(in bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBytes { nalUnits(in: $0) }
    }

    /// The NAL units of `bytes` as slices of it (header byte included).
    public static func nalUnitBytes(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        nalUnits(in: bytes).map { bytes[$0] }
    }

    /// Whether start codes can frame `nalUnit` so that ``nalUnits(in:)`` finds it again whole:
    /// it is not empty, holds no `00 00 00`, `00 00 01` or `00 00 02`, and does not end in `00`,
    /// as §7.4.1 makes every NAL unit (a length-prefixed one from a file need not be).
    public static func canFrame(_ nalUnit: UnsafeRawBufferPointer) -> Bool {
        guard let last = nalUnit.last, last != 0 else { return false }
        var zeros = 0
        for byte in nalUnit {
            if zeros >= 2, byte <= 2 { return false }
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return true
    }

    /// Adds `range` without its trailing zero bytes, unless nothing is left.
    private static func append(_ range: Range<Int>, of bytes: UnsafeRawBufferPointer, to units: inout [Range<Int>]) {
        var end = range.upperBound
        while end > range.lowerBound, bytes[end - 1] == 0 { end -= 1 }
        if end > range.lowerBound { units.append(range.lowerBound..<end) }
    }
}
