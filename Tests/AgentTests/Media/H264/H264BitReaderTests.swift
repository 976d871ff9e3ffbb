import Testing

@testable import AgentMedia

@Suite struct H264BitReaderTests {
    /// §9.1 Table 9-2: the first codes and their values.
    @Test func readsExpGolombCodes() throws {
        // 1 | 010 | 011 | 00100 | 00101 | 00110 | 00111 | 0001000, then padding
        // 1010 0110 | 0100 0010 | 1001 1000 | 1110 0010 | 00xx xxxx
        var reader = H264BitReader(rbsp: [0xA6, 0x42, 0x98, 0xE2, 0x00])
        var values: [UInt32] = []
        for _ in 0..<8 { values.append(try reader.unsignedExpGolomb()) }
        #expect(values == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(reader.bitOffset == 34)
    }

    /// §9.1.1 Table 9-3: se(v) alternates 0, 1, −1, 2, −2 …
    @Test func readsSignedExpGolombCodes() throws {
        var reader = H264BitReader(rbsp: [0xA6, 0x42, 0x98, 0xE2, 0x00])
        var values: [Int32] = []
        for _ in 0..<8 { values.append(try reader.signedExpGolomb()) }
        #expect(values == [0, 1, -1, 2, -2, 3, -3, 4])
    }

    /// 31 leading zeros is the longest code: 2^32 − 2 at most. 32 zeros are refused before the
    /// value is read.
    @Test func boundsTheCodeLength() throws {
        // 31 zeros, a one, 31 ones: 0x00 0x00 0x00 0x01 0xFF 0xFF 0xFF 0xFF
        var longest = H264BitReader(rbsp: [0x00, 0x00, 0x00, 0x01, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try longest.unsignedExpGolomb() == UInt32.max - 1)
        var signed = H264BitReader(rbsp: [0x00, 0x00, 0x00, 0x01, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try signed.signedExpGolomb() == -Int32.max)
        var tooLong = H264BitReader(rbsp: [0x00, 0x00, 0x00, 0x00, 0xFF])
        #expect(throws: H264Error.expGolombTooLong(leadingZeros: 32)) { try tooLong.unsignedExpGolomb() }
        var allZero = H264BitReader(rbsp: [UInt8](repeating: 0, count: 64))
        #expect(throws: H264Error.expGolombTooLong(leadingZeros: 32)) { try allZero.unsignedExpGolomb() }
    }

    @Test func truncatedReadsThrow() throws {
        var reader = H264BitReader(rbsp: [0x00, 0x01])
        // 15 zeros then the one: the 15 suffix bits are missing.
        #expect(throws: H264Error.truncated(offset: 16, needed: 15, available: 16)) { try reader.unsignedExpGolomb() }
        var short = H264BitReader(rbsp: [0xFF])
        #expect(try short.bits(5) == 0x1F)
        #expect(throws: H264Error.truncated(offset: 5, needed: 4, available: 8)) { try short.bits(4) }
        #expect(throws: H264Error.truncated(offset: 5, needed: 9, available: 8)) { try short.skip(9) }
        var empty = H264BitReader(rbsp: [])
        #expect(throws: H264Error.truncated(offset: 0, needed: 1, available: 0)) { try empty.flag() }
    }

    /// §7.3.1: a 03 after two zeros is taken out, whatever follows it; the count starts again
    /// after it, so 00 00 03 00 00 03 holds two.
    @Test(arguments: [
        ([0x00, 0x00, 0x03, 0x01], [0x00, 0x00, 0x01]),
        ([0x00, 0x00, 0x03, 0x00, 0x00, 0x03], [0x00, 0x00, 0x00, 0x00]),
        ([0x00, 0x00, 0x03, 0x03], [0x00, 0x00, 0x03]),
        ([0x00, 0x03, 0x00, 0x00, 0x03, 0xFF], [0x00, 0x03, 0x00, 0x00, 0xFF]),
        ([0x00, 0x00, 0x00, 0x03], [0x00, 0x00, 0x00]),
        ([0x25, 0x00, 0x00, 0x04], [0x25, 0x00, 0x00, 0x04]),
    ] as [([UInt8], [UInt8])])
    func removesEmulationPreventionBytes(payload: [UInt8], rbsp: [UInt8]) {
        #expect(H264BitReader.rbsp(of: payload) == rbsp)
    }
}
