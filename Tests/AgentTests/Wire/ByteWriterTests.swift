import Testing

@testable import Agent
@testable import AgentCore

@Suite struct ByteWriterTests {
    /// Runs `body` with a writer over `capacity` bytes set to 0xEE (so untouched bytes show), and
    /// returns the buffer and how far the writer got.
    static func written(capacity: Int, _ body: (inout ByteWriter) throws -> Void) rethrows -> (bytes: [UInt8], offset: Int) {
        var bytes = [UInt8](repeating: 0xEE, count: capacity)
        let offset = try bytes.withUnsafeMutableBytes { buffer in
            var writer = ByteWriter(buffer)
            try body(&writer)
            return writer.offset
        }
        return (bytes, offset)
    }

    @Test func writesEveryWidthInBothOrders() throws {
        let result = try Self.written(capacity: 31) { writer in
            try writer.writeUInt8(0x01)
            try writer.writeBigEndian(UInt16(0x0203))
            try writer.writeBigEndian(UInt32(0x0405_0607))
            try writer.writeBigEndian(UInt64(0x0809_0A0B_0C0D_0E0F))
            try writer.writeLittleEndian(UInt16(0x0302))
            try writer.writeLittleEndian(UInt32(0x0706_0504))
            try writer.writeLittleEndian(UInt64(0x0F0E_0D0C_0B0A_0908))
            #expect(writer.remaining == 2)
        }
        #expect(result.offset == 29)
        #expect(result.bytes == Array(1...15) + Array(2...15) + [0xEE, 0xEE])
    }

    @Test func writesBytesAndZeros() throws {
        let result = try Self.written(capacity: 6) { writer in
            try writer.writeBytes([0xAB, 0xCD])
            try writer.writeZeros(3)
            try writer.writeZeros(0)
        }
        #expect(result.offset == 5)
        #expect(result.bytes == [0xAB, 0xCD, 0x00, 0x00, 0x00, 0xEE])
    }

    /// A write one byte too big for the room left throws, writes nothing and does not move.
    @Test(arguments: [1, 2, 4, 8])
    func writingPastTheEndThrowsAtEveryWidth(width: Int) throws {
        let expected = ByteRangeError(offset: 1, wanted: width, count: width)
        let result = try Self.written(capacity: width) { writer in
            try writer.writeUInt8(0x11)
            switch width {
            case 1: #expect(throws: expected) { try writer.writeUInt8(0x22) }
            case 2:
                #expect(throws: expected) { try writer.writeBigEndian(UInt16.max) }
                #expect(throws: expected) { try writer.writeLittleEndian(UInt16.max) }
            case 4:
                #expect(throws: expected) { try writer.writeBigEndian(UInt32.max) }
                #expect(throws: expected) { try writer.writeLittleEndian(UInt32.max) }
            default:
                #expect(throws: expected) { try writer.writeBigEndian(UInt64.max) }
                #expect(throws: expected) { try writer.writeLittleEndian(UInt64.max) }
            }
            #expect(throws: expected) { try writer.writeBytes([UInt8](repeating: 0x33, count: width)) }
            #expect(throws: expected) { try writer.writeZeros(width) }
        }
        #expect(result.offset == 1)
        #expect(result.bytes == [0x11] + [UInt8](repeating: 0xEE, count: width - 1))
    }

    @Test func negativeCountsAndEmptyBuffersThrow() {
        _ = Self.written(capacity: 4) { writer in
            #expect(throws: ByteRangeError(offset: 0, wanted: -1, count: 4)) { try writer.writeZeros(-1) }
        }
        var writer = ByteWriter(UnsafeMutableRawBufferPointer(start: nil, count: 0))
        #expect(throws: ByteRangeError(offset: 0, wanted: 2, count: 0)) { try writer.writeBigEndian(UInt16(1)) }
    }

    @Test func arraysAppendEveryWidthInBothOrders() {
        var big: [UInt8] = [0xFF]
        big.appendBigEndian(UInt8(0x01))
        big.appendBigEndian(UInt16(0x0203))
        big.appendBigEndian(UInt32(0x0405_0607))
        big.appendBigEndian(Int64(-2))
        #expect(big == [0xFF, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
        var little: [UInt8] = []
        little.appendLittleEndian(UInt8(0x01))
        little.appendLittleEndian(UInt16(0x0302))
        little.appendLittleEndian(UInt32(0x0706_0504))
        little.appendLittleEndian(Int64(-2))
        #expect(little == [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    }

    static let samples: [UInt64] = [0, 1, 0x80, 0xFF, 0x0100, 0x7FFF_FFFF, 0x8000_0000, 0xDEAD_BEEF_0BAD_F00D, .max]

    /// What either writer writes, the reader reads back, in both orders and at every width.
    @Test(arguments: samples)
    func writeThenReadRoundTrips(value: UInt64) throws {
        var appended: [UInt8] = []
        appended.appendBigEndian(UInt16(truncatingIfNeeded: value))
        appended.appendLittleEndian(UInt16(truncatingIfNeeded: value))
        appended.appendBigEndian(UInt32(truncatingIfNeeded: value))
        appended.appendLittleEndian(UInt32(truncatingIfNeeded: value))
        appended.appendBigEndian(value)
        appended.appendLittleEndian(value)
        let stored = try Self.written(capacity: appended.count) { writer in
            try writer.writeBigEndian(UInt16(truncatingIfNeeded: value))
            try writer.writeLittleEndian(UInt16(truncatingIfNeeded: value))
            try writer.writeBigEndian(UInt32(truncatingIfNeeded: value))
            try writer.writeLittleEndian(UInt32(truncatingIfNeeded: value))
            try writer.writeBigEndian(value)
            try writer.writeLittleEndian(value)
        }
        #expect(stored.bytes == appended)
        try ByteReader.read(appended) { (reader: inout ByteReader) throws in
            #expect(try reader.readBigEndian(UInt16.self) == UInt16(truncatingIfNeeded: value))
            #expect(try reader.readLittleEndian(UInt16.self) == UInt16(truncatingIfNeeded: value))
            #expect(try reader.readBigEndian(UInt32.self) == UInt32(truncatingIfNeeded: value))
            #expect(try reader.readLittleEndian(UInt32.self) == UInt32(truncatingIfNeeded: value))
            #expect(try reader.readBigEndian(UInt64.self) == value)
            #expect(try reader.readLittleEndian(UInt64.self) == value)
            #expect(reader.isAtEnd)
        }
    }
}
