import Testing

@testable import Agent
@testable import AgentCore

@Suite struct ByteReaderTests {
    /// Eight distinct bytes, so a swapped or shifted byte shows in every width.
    static let ascending: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]

    @Test func readsEveryWidthInBothOrders() throws {
        try (Self.ascending + Self.ascending).withUnsafeBytes { (bytes) throws in
            var reader = ByteReader(bytes)
            #expect(try reader.readUInt8() == 0x01)
            #expect(try reader.readBigEndian(UInt16.self) == 0x0203)
            #expect(try reader.readBigEndian(UInt32.self) == 0x0405_0607)
            #expect(try reader.readLittleEndian(UInt16.self) == 0x0108)
            #expect(try reader.readLittleEndian(UInt32.self) == 0x0504_0302)
            #expect(reader.offset == 13 && reader.remaining == 3)
            reader = ByteReader(bytes)
            #expect(try reader.readBigEndian(UInt64.self) == 0x0102_0304_0506_0708)
            #expect(try reader.readLittleEndian(UInt64.self) == 0x0807_0605_0403_0201)
            #expect(reader.isAtEnd)
        }
    }

    @Test func readsSignedIntegersByTheirBits() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0xFE, 0xFF, 0x80, 0x00, 0x00, 0x00]
        try bytes.withUnsafeBytes { (buffer) throws in
            var reader = ByteReader(buffer)
            #expect(try reader.readBigEndian(Int16.self) == -2)
            #expect(try reader.readLittleEndian(Int16.self) == -2)
            #expect(try reader.readBigEndian(Int32.self) == Int32.min)
        }
    }

    /// A read one byte short of each width throws and consumes nothing; so does a read at the end.
    @Test(arguments: [1, 2, 4, 8])
    func readingPastTheEndThrowsAtEveryWidth(width: Int) throws {
        let bytes = [UInt8](repeating: 0xAA, count: width + 2)
        try bytes.withUnsafeBytes { (all) throws in
            // Two bytes in, with width - 1 left.
            let short = UnsafeRawBufferPointer(rebasing: all[0..<(width + 1)])
            var reader = ByteReader(short)
            try reader.skip(2)
            let expected = ByteRangeError(offset: 2, wanted: width, count: width + 1)
            switch width {
            case 1: #expect(throws: expected) { try reader.readUInt8() }
            case 2:
                #expect(throws: expected) { try reader.readBigEndian(UInt16.self) }
                #expect(throws: expected) { try reader.readLittleEndian(UInt16.self) }
            case 4:
                #expect(throws: expected) { try reader.readBigEndian(UInt32.self) }
                #expect(throws: expected) { try reader.readLittleEndian(UInt32.self) }
            default:
                #expect(throws: expected) { try reader.readBigEndian(UInt64.self) }
                #expect(throws: expected) { try reader.readLittleEndian(UInt64.self) }
            }
            #expect(throws: expected) { try reader.readBytes(width) }
            #expect(throws: expected) { try reader.skip(width) }
            #expect(reader.offset == 2, "a failed read consumes nothing")
            #expect(expected.needed == width + 2)
        }
    }

    @Test func anEmptyBufferThrowsInsteadOfReading() {
        var reader = ByteReader(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(reader.isAtEnd && reader.remaining == 0)
        #expect(throws: ByteRangeError(offset: 0, wanted: 1, count: 0)) { try reader.readUInt8() }
        #expect(throws: ByteRangeError(offset: 0, wanted: 8, count: 0)) { try reader.readLittleEndian(UInt64.self) }
        #expect(throws: Never.self) { try reader.readBytes(0) }
    }

    /// Lengths declared by the input: huge or negative counts are refused, not added up.
    @Test func declaredLengthsAreBoundedByWhatRemains() throws {
        try Self.ascending.withUnsafeBytes { (bytes) throws in
            var reader = ByteReader(bytes)
            try reader.skip(3)
            #expect(throws: ByteRangeError(offset: 3, wanted: 6, count: 8)) { try reader.readBytes(6) }
            #expect(throws: ByteRangeError(offset: 3, wanted: Int.max, count: 8)) { try reader.readBytes(Int.max) }
            #expect(throws: ByteRangeError(offset: 3, wanted: -1, count: 8)) { try reader.readBytes(-1) }
            #expect(throws: ByteRangeError(offset: 3, wanted: -3, count: 8)) { try reader.skip(-3) }
            #expect(ByteRangeError(offset: 3, wanted: Int.max, count: 8).needed == Int.max)
            #expect(reader.offset == 3)
            let rest = try reader.readBytes(5)
            #expect(Array(rest) == [0x04, 0x05, 0x06, 0x07, 0x08])
            #expect(rest.baseAddress == bytes.baseAddress.map { $0 + 3 }, "read in place, not copied")
            #expect(reader.isAtEnd)
        }
    }

    @Test func readsArraysSlicesAndOtherSequences() throws {
        let fromArray = ByteReader.read(Self.ascending) { reader in try? reader.readBigEndian(UInt32.self) }
        #expect(fromArray == 0x0102_0304)
        // A slice's offsets count from the slice's start.
        let fromSlice = ByteReader.read(Self.ascending[4...]) { reader in
            (try? reader.readLittleEndian(UInt16.self), reader.offset, reader.remaining)
        }
        #expect(fromSlice.0 == 0x0605 && fromSlice.1 == 2 && fromSlice.2 == 2)
        // A sequence without contiguous storage is copied first.
        let lazy = (1...4).lazy.map { UInt8($0) }
        #expect(ByteReader.read(lazy) { reader in try? reader.readBigEndian(UInt32.self) } == 0x0102_0304)
    }

    @Test func theBodysTypedErrorComesOutOfRead() {
        struct Refused: Error, Equatable { let at: Int }
        #expect(throws: Refused(at: 1)) {
            try ByteReader.read([0x07]) { (reader: inout ByteReader) throws(Refused) in
                do throws(ByteRangeError) {
                    _ = try reader.readBigEndian(UInt16.self)
                } catch {
                    throw Refused(at: error.offset + 1)
                }
            }
        }
    }

    @Test func errorsSayWhatWasAsked() {
        #expect(ByteRangeError(offset: 3, wanted: 4, count: 5).description
            == "4 bytes at offset 3 run past the end of 5 bytes")
    }
}
