import Testing

@testable import Recorder

@Suite struct EBMLTests {
    @Test(arguments: [
        (UInt64(0), [0x80]),
        (126, [0xFE]),
        (127, [0x40, 0x7F]),  // 127 would be all ones in one byte: reserved, so two bytes
        (16382, [0x7F, 0xFE]),
        (16383, [0x20, 0x3F, 0xFF]),
        (0x1234_5678, [0x08, 0x12, 0x34, 0x56, 0x78]),  // 29 bits: five bytes
    ] as [(UInt64, [UInt8])])
    func sizesUseTheShortestVint(value: UInt64, expected: [UInt8]) {
        #expect(EBML.size(value) == expected)
    }

    @Test func fixedLengthSizeAndIDs() {
        #expect(EBML.size(5, length: 8) == [0x01, 0, 0, 0, 0, 0, 0, 5])
        #expect(EBML.id(MatroskaID.segment) == [0x18, 0x53, 0x80, 0x67])
        #expect(EBML.id(MatroskaID.simpleBlock) == [0xA3])
        #expect(EBML.id(MatroskaID.timestampScale) == [0x2A, 0xD7, 0xB1])
    }

    @Test func typedElements() {
        #expect(EBML.unsigned(MatroskaID.trackNumber, 1) == [0xD7, 0x81, 0x01])
        #expect(EBML.unsigned(MatroskaID.timestampScale, 1_000_000) == [0x2A, 0xD7, 0xB1, 0x83, 0x0F, 0x42, 0x40])
        #expect(EBML.string(MatroskaID.docType, "webm") == [0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6D])
        #expect(EBML.float(MatroskaID.duration, 1.0) == [0x44, 0x89, 0x88, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0])
    }

    @Test(arguments: [2, 9, 100, 200])
    func voidFillsExactly(total: Int) {
        let void = EBML.void(total: total)
        #expect(void.count == total)
        #expect(void.first == 0xEC)
    }
}
