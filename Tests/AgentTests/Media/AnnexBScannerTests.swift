import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct AnnexBScannerTests {
    static func units(_ bytes: [UInt8]) -> [[UInt8]] {
        AnnexBScanner.nalUnits(in: bytes).map { Array(bytes[$0]) }
    }

    @Test func threeAndFourByteStartCodesBothSplit() {
        let stream: [UInt8] = [
            0x00, 0x00, 0x00, 0x01,  // zero_byte + start code prefix
        ] + H264TestStream.sps + [
            0x00, 0x00, 0x01,  // three-byte prefix
        ] + H264TestStream.pps + [0x00, 0x00, 0x00, 0x01] + H264TestStream.idrSlice0
        #expect(Self.units(stream) == [H264TestStream.sps, H264TestStream.pps, H264TestStream.idrSlice0])
    }

    /// The SPS holds `00 00 03` twice (emulation prevention): not a start code.
    @Test func emulationPreventionBytesAreNotStartCodes() {
        #expect(Self.units([0, 0, 1] + H264TestStream.sps) == [H264TestStream.sps])
    }

    /// B.2: leading_zero_8bits and trailing_zero_8bits are framing, not NAL unit bytes; bytes
    /// before the first start code are no NAL unit; empty units are skipped.
    @Test func framingBytesAreDropped() {
        #expect(Self.units([0, 0, 0, 0, 0, 1, 0x09, 0xF0, 0, 0, 0, 0, 0, 1, 0x41, 0x9A, 0, 0]) == [[0x09, 0xF0], [0x41, 0x9A]])
        #expect(Self.units([0x65, 0x88, 0, 0, 1, 0x68, 0xCE]) == [[0x68, 0xCE]])
        #expect(Self.units([0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0x0A]) == [[0x0A]])
        #expect(Self.units([0x00, 0x00, 0x01]).isEmpty)
    }

    @Test(arguments: [[], [0x00], [0x00, 0x00], [0x00, 0x01], [0x67, 0x42, 0xC0], [0, 0, 2, 0x67]] as [[UInt8]])
    func bytesWithoutAStartCodeHoldNoNALUnit(bytes: [UInt8]) {
        #expect(AnnexBScanner.nalUnits(in: bytes).isEmpty)
    }

    /// The skip by three bytes must not step over a start code at any alignment.
    @Test func aStartCodeIsFoundAtEveryOffset() {
        for lead in 0..<7 {
            let bytes = [UInt8](repeating: 0x55, count: lead) + [0, 0, 1, 0x41, 0x02, 0, 0, 1, 0x41, 0x03]
            #expect(Self.units(bytes) == [[0x41, 0x02], [0x41, 0x03]], "lead \(lead)")
        }
    }
}
