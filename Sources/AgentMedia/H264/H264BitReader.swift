/// Reads the bits of an H.264 RBSP (raw byte sequence payload) MSB first: fixed-width fields
/// u(n) and the Exp-Golomb codes ue(v) and se(v) of ITU-T H.264 §9.1.
///
/// A NAL unit's payload is not its RBSP yet: wherever the encoder would have written 00 00 00,
/// 00 00 01, 00 00 02 or 00 00 03 it inserted an emulation_prevention_three_byte (§7.3.1,
/// §7.4.1), which ``init(nalUnitPayload:)`` takes out again:
///
///     payload  … 00 00 03 01 …   →   RBSP  … 00 00 01 …
///
/// An Exp-Golomb code is `leadingZeroBits` zeros, a one, and `leadingZeroBits` more bits:
///
///     1 → 0 · 010 → 1 · 011 → 2 · 00100 → 3 · …   ue(v) = 2^leadingZeroBits − 1 + those bits
///     se(v) maps ue(v) k to (−1)^(k+1) · ⌈k/2⌉:  0, 1, −1, 2, −2, …
///
/// Codes are bounded as 32-bit values: more than 31 leading zeros is refused
/// (``H264Error/expGolombTooLong(leadingZeros:)``), so a run of zeros never becomes a long scan
/// or an overflow. Reading past the end throws ``H264Error/truncated(offset:needed:available:)``.
struct H264BitReader {
    private let bytes: [UInt8]
    private(set) var bitOffset = 0

    /// Reads an RBSP as it is (no emulation prevention bytes in it).
    init(rbsp: [UInt8]) {
        bytes = rbsp
    }

    /// Reads the RBSP of `payload`: the bytes of a NAL unit after its header byte, with the
    /// emulation prevention bytes removed.
    init(nalUnitPayload payload: some Sequence<UInt8>) {
        self.init(rbsp: Self.rbsp(of: payload))
    }

    var bitCount: Int { bytes.count * 8 }
    var bitsLeft: Int { bitCount - bitOffset }

    /// §7.3.1: every 03 that follows two zero bytes is an emulation prevention byte.
    static func rbsp(of payload: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.underestimatedCount)
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 0x03 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    /// u(1).
    mutating func flag() throws(H264Error) -> Bool {
        try bits(1) == 1
    }

    /// u(n), n from 0 to 32.
    mutating func bits(_ count: Int) throws(H264Error) -> UInt32 {
        guard (0...32).contains(count) else { throw .invalidValue(field: "bit count", value: Int64(count)) }
        guard count <= bitsLeft else { throw .truncated(offset: bitOffset, needed: count, available: bitCount) }
        var value: UInt32 = 0
        for _ in 0..<count {
            let byte = bytes[bitOffset >> 3]
            value = value << 1 | UInt32(byte >> (7 - UInt8(bitOffset & 7)) & 1)
            bitOffset += 1
        }
        return value
    }

    /// Skips `count` bits.
    mutating func skip(_ count: Int) throws(H264Error) {
        guard count >= 0, count <= bitsLeft else { throw .truncated(offset: bitOffset, needed: count, available: bitCount) }
        bitOffset += count
    }

    /// ue(v), §9.1.
    mutating func unsignedExpGolomb() throws(H264Error) -> UInt32 {
        var leadingZeros = 0
        while try !flag() {
            leadingZeros += 1
            guard leadingZeros <= 31 else { throw .expGolombTooLong(leadingZeros: leadingZeros) }
        }
        // 2^31 − 1 + (2^31 − 1) is the largest value: it fits.
        let suffix = try bits(leadingZeros)
        return (UInt32(1) << UInt32(leadingZeros)) - 1 + suffix
    }

    /// se(v), §9.1.1.
    mutating func signedExpGolomb() throws(H264Error) -> Int32 {
        let codeNumber = Int64(try unsignedExpGolomb())
        let magnitude = (codeNumber + 1) / 2
        // codeNumber ≤ 2^32 − 2, so the magnitude is at most 2^31 − 1.
        return Int32(truncatingIfNeeded: codeNumber % 2 == 1 ? magnitude : -magnitude)
    }

    /// ue(v) that must lie in `range` (§7.4's bounds), named `field` for the error.
    mutating func unsignedExpGolomb(_ field: String, in range: ClosedRange<UInt32>) throws(H264Error) -> UInt32 {
        let value = try unsignedExpGolomb()
        guard range.contains(value) else { throw .invalidValue(field: field, value: Int64(value)) }
        return value
    }

    /// se(v) that must lie in `range`, named `field` for the error.
    mutating func signedExpGolomb(_ field: String, in range: ClosedRange<Int32>) throws(H264Error) -> Int32 {
        let value = try signedExpGolomb()
        guard range.contains(value) else { throw .invalidValue(field: field, value: Int64(value)) }
        return value
    }
}
