import Testing

@testable import AgentMedia

@Suite struct AnnexBScannerFramingTests {
    @Test func splitsOnThreeAndFourByteStartCodes() {
        let bytes: [UInt8] = [
            0x00, 0x00, 0x00, 0x01, 0x67, 0x42, 0xC0,  // 4-byte start code, SPS (0..<7)
            0x00, 0x00, 0x01, 0x68, 0xCB,  // 3-byte start code, PPS
            0x00, 0x00, 0x00, 0x01, 0x65, 0x88, 0x84, 0x00, 0x00, 0x03, 0x01,  // IDR slice with an emulation prevention byte
        ]
        #expect(AnnexBScanner.nalUnits(in: bytes) == [4..<7, 10..<12, 16..<23])
        #expect(AnnexBScanner.nalUnitBytes(in: bytes).map { H264NALUnitType.bits(of: $0.first ?? 0) } == [7, 8, 5])
    }

    @Test func trailingZerosAndLeadingBytesAreFraming() {
        let bytes: [UInt8] = [
            0x00, 0x00,  // leading_zero_8bits
            0x00, 0x00, 0x01, 0x09, 0xF0, 0x00, 0x00,  // AUD, then trailing_zero_8bits
            0x00, 0x00, 0x00, 0x01, 0x41, 0x9A, 0x00, 0x00,  // non-IDR slice, trailing zeros at the end
        ]
        #expect(AnnexBScanner.nalUnits(in: bytes) == [5..<7, 13..<15])
        // Bytes before the first start code are not a NAL unit.
        #expect(AnnexBScanner.nalUnits(in: [0x41, 0x9A, 0x00, 0x00, 0x01, 0x41]) == [5..<6])
    }

    @Test(arguments: [
        [],
        [0x00],
        [0x00, 0x00, 0x01],  // a start code with nothing after it
        [0x00, 0x00, 0x01, 0x00, 0x00, 0x01],  // empty units
        [0x00, 0x00, 0x00, 0x00],
        [0x41, 0x9A, 0x22],  // no start code
        [0x00, 0x01, 0x41],  // one zero is not a start code
    ] as [[UInt8]])
    func findsNothingWithoutAUnit(bytes: [UInt8]) {
        #expect(AnnexBScanner.nalUnits(in: bytes).isEmpty)
    }

    @Test func oneByteUnitsAndBackToBackStartCodes() {
        let bytes: [UInt8] = [0x00, 0x00, 0x01, 0x09, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x0C]
        #expect(AnnexBScanner.nalUnits(in: bytes) == [3..<4, 10..<11])
    }

    /// Every range stays inside the bytes and ends in a non-zero byte: all 16,384 strings of
    /// seven bytes from 00, 01, 03 and 65.
    @Test func rangesStayInBounds() {
        let alphabet: [UInt8] = [0x00, 0x01, 0x03, 0x65]
        for code in 0..<(1 << 14) {
            let bytes = (0..<7).map { alphabet[code >> (2 * $0) & 3] }
            for range in AnnexBScanner.nalUnits(in: bytes) {
                #expect(range.lowerBound >= 0 && range.upperBound <= bytes.count && !range.isEmpty, "\(bytes)")
                #expect(bytes[range.upperBound - 1] != 0, "\(bytes)")
            }
        }
    }
}
