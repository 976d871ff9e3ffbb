import Testing

@testable import Agent
@testable import AgentWire

@Suite struct RTPHeaderTests {
    /// An Opus packet with a one-byte extension carrying MID "1" (id 4) and audio level (id 1).
    static let opusWithMID: [UInt8] = [
        0x90, 0xEF,  // V=2 P=0 X=1 CC=0 | M=1 PT=111
        0x12, 0x34,  // sequence number 0x1234
        0x00, 0x00, 0x03, 0xC0,  // timestamp 960
        0xDE, 0xAD, 0xBE, 0xEF,  // SSRC
        0xBE, 0xDE, 0x00, 0x01,  // one-byte profile, 1 word of elements
        0x40, 0x31,  // id 4, len 1: "1"
        0x10, 0x7F,  // id 1, len 1: audio level 127
        0xFC, 0xFF, 0xFE,  // payload
    ]

    @Test func parsesFixedHeaderExtensionAndPayload() throws {
        let header = try RTPHeader.parse(Self.opusWithMID)
        #expect(header.marker)
        #expect(header.payloadType == 111)
        #expect(header.sequenceNumber == 0x1234)
        #expect(header.timestamp == 960)
        #expect(header.ssrc == 0xDEAD_BEEF)
        #expect(header.extensionProfile == 0xBEDE)
        #expect(header.payloadRange == 20..<23)
        try Self.opusWithMID.withUnsafeBytes { (bytes) throws in
            #expect(try header.mid(extensionID: 4, in: bytes) == "1")
            #expect(try header.extensionElement(id: 1, in: bytes) == 19..<20)
            #expect(try header.extensionElement(id: 7, in: bytes) == nil)
        }
    }

    @Test func paddingIsExcludedFromPayload() throws {
        let packet: [UInt8] = [0xA0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xAA, 0xBB, 0x00, 0x00, 0x03]
        let header = try RTPHeader.parse(packet)
        #expect(header.paddingLength == 3)
        #expect(header.payloadRange == 12..<14)
    }

    @Test(arguments: [
        ([0x80, 0x60, 0, 1], RTPError.truncated(needed: 12, got: 4)),
        ([0x40, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1], .badVersion(1)),
        ([0x82, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1], .truncated(needed: 20, got: 16)),
        ([0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xBE, 0xDE, 0x00, 0x02, 0x10, 0x00], .extensionPastEnd(needed: 24, got: 18)),
        ([0xA0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xAA, 0x09], .paddingPastEnd(padding: 9, available: 2)),
        ([0xA0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xAA, 0x00], .paddingPastEnd(padding: 0, available: 2)),
    ] as [([UInt8], RTPError)])
    func rejectsMalformedPackets(bytes: [UInt8], expected: RTPError) {
        #expect(throws: expected) { try RTPHeader.parse(bytes) }
    }

    @Test func extensionElementPastItsBlockIsAnError() throws {
        // id 4 claims 4 bytes but the block holds 3 after it.
        let packet: [UInt8] = [0x90, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xBE, 0xDE, 0x00, 0x01, 0x43, 0x31, 0x32, 0x33]
        let header = try RTPHeader.parse(packet)
        try packet.withUnsafeBytes { (bytes) throws in
            #expect(throws: RTPError.badExtensionElement(offset: 16)) { try header.extensionElement(id: 4, in: bytes) }
        }
    }

    @Test func writeThenParseRoundTrips() throws {
        var buffer = [UInt8](repeating: 0xFF, count: 64)
        let elements = [RTPHeader.ExtensionElement(id: 4, data: Array("video0".utf8)), .init(id: 2, data: [1, 2, 3])]
        let length = try buffer.withUnsafeMutableBytes { bytes in
            try RTPHeader.write(marker: true, payloadType: 96, sequenceNumber: 65535, timestamp: 0xFFFF_FFFF, ssrc: 42, extensions: elements, into: bytes)
        }
        #expect(length == RTPHeader.length(extensions: elements))
        #expect(length % 4 == 0)
        buffer[length] = 0x55
        let header = try RTPHeader.parse(Array(buffer[0...length]))
        #expect(header.marker && header.payloadType == 96 && header.sequenceNumber == 65535)
        #expect(header.timestamp == 0xFFFF_FFFF && header.ssrc == 42)
        #expect(header.payloadRange == length..<(length + 1))
        try buffer.withUnsafeBytes { (bytes) throws in
            #expect(try header.mid(extensionID: 4, in: bytes) == "video0")
            #expect(try header.extensionElement(id: 2, in: bytes).map { Array(bytes[$0]) } == [1, 2, 3])
        }
    }

    @Test func writeRefusesSmallBuffer() {
        var buffer = [UInt8](repeating: 0, count: 8)
        buffer.withUnsafeMutableBytes { bytes in
            #expect(throws: RTPError.bufferTooSmall(needed: 12, capacity: 8)) {
                try RTPHeader.write(marker: false, payloadType: 0, sequenceNumber: 0, timestamp: 0, ssrc: 0, into: bytes)
            }
        }
    }
}
