import Testing

@testable import AgentSession
@testable import AgentWire

/// RFC 6464 levels kept per sequence number until the frame of that packet is handed on.
@Suite struct AudioLevelRingTests {
    /// An RTP packet with a one-byte-header extension block (RFC 8285 §4.2) holding element `id`
    /// with `data`, then a 3-byte payload.
    static func packet(sequence: UInt16, id: UInt8, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x90, 111, UInt8(sequence >> 8), UInt8(sequence & 0xFF), 0, 0, 3, 0xC0, 0x12, 0x34, 0x56, 0x78]
        var element: [UInt8] = data.isEmpty ? [] : [id << 4 | UInt8(data.count - 1)] + data
        while element.count % 4 != 0 { element.append(0) }
        bytes += [0xBE, 0xDE, 0, UInt8(element.count / 4)] + element
        return bytes + [1, 2, 3]
    }

    static func record(_ ring: inout AudioLevelRing, _ bytes: [UInt8], id: UInt8 = 4) throws {
        let header = try RTPHeader.parse(bytes)
        bytes.withUnsafeBytes { ring.record(header, $0, extensionID: id) }
    }

    @Test func keepsEachPacketsLevelBySequenceUntilOverwritten() throws {
        var ring = AudioLevelRing()
        try Self.record(&ring, Self.packet(sequence: 65_535, id: 4, data: [0x80 | 20]))
        try Self.record(&ring, Self.packet(sequence: 0, id: 4, data: [45]))
        let voicedAt20: UInt8 = 0x80 | 20
        #expect(ring.level(sequence: 65_535) == voicedAt20)
        #expect(ring.level(sequence: 65_536) == 45, "the unwrapped number of sequence 0 after a wrap")
        #expect(ring.level(sequence: 7) == nil)
        // 128 packets later the slot holds another packet's level.
        try Self.record(&ring, Self.packet(sequence: 128, id: 4, data: [90]))
        #expect(ring.level(sequence: 0) == nil)
        #expect(ring.level(sequence: 128) == 90)
    }

    @Test func otherIDsAndMalformedBlocksLeaveNoLevel() throws {
        var ring = AudioLevelRing()
        try Self.record(&ring, Self.packet(sequence: 5, id: 3, data: [30]))
        #expect(ring.level(sequence: 5) == nil, "element 3 is not the negotiated 4")
        var truncated = Self.packet(sequence: 6, id: 4, data: [30])
        truncated[16] = 0x4F  // id 4 claiming 16 bytes in a 4-byte block
        if let header = try? RTPHeader.parse(truncated) {
            truncated.withUnsafeBytes { ring.record(header, $0, extensionID: 4) }
        }
        #expect(ring.level(sequence: 6) == nil)
    }
}
