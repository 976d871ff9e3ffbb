import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct VP8PacketizationTests {
    @Test func parsesAFullDescriptor() throws {
        let payload: [UInt8] = [
            0x90,  // X=1 S=1 PID=0
            0xF0,  // I L T K
            0x81, 0x23,  // M=1, picture id 0x0123
            0x05,  // TL0PICIDX
            0x65,  // TID=1 Y=1 KEYIDX=5
            0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A,  // VP8 bytes: frame tag with P=0 (keyframe), start code
        ]
        let descriptor = try payload.withUnsafeBytes { (bytes) throws in try VP8PayloadDescriptor.parse(bytes) }
        #expect(descriptor.startsFrame)
        #expect(descriptor.pictureID == 0x0123 && descriptor.longPictureID)
        #expect(descriptor.tl0PictureIndex == 5)
        #expect(descriptor.temporalLayer == 1 && descriptor.layerSync && descriptor.keyIndex == 5)
        #expect(descriptor.length == 6)
    }

    /// Fuzz fixture (vp8 target): `b5 6b 01 00` has TL0PICIDX and TID but no picture id, and
    /// wrote back as the bare first byte, losing them. Every field read is now written.
    @Test(arguments: [
        ([0xB5, 0x6B, 0x01, 0x00], [0xB5, 0x60, 0x01, 0x00]),  // the fixture; reserved bits are not kept
        ([0x90, 0xF0, 0x81, 0x23, 0x05, 0x65], [0x90, 0xF0, 0x81, 0x23, 0x05, 0x65]),
        ([0x80, 0x80, 0x05], [0x80, 0x80, 0x05]),
        ([0x80, 0x10, 0xDF], [0x80, 0x10, 0x1F]),  // K alone: TID and Y mean nothing
        ([0x80, 0x00], [0x00]),  // an X byte with no flags
        ([0x3F], [0x37]),
    ] as [([UInt8], [UInt8])])
    func writesBackEveryFieldItRead(bytes: [UInt8], expected: [UInt8]) throws {
        let descriptor = try bytes.withUnsafeBytes { (buffer) throws in try VP8PayloadDescriptor.parse(buffer) }
        var written: [UInt8] = []
        descriptor.write(into: &written)
        #expect(written == expected)
        var again = try written.withUnsafeBytes { (buffer) throws in try VP8PayloadDescriptor.parse(buffer) }
        again.length = descriptor.length
        #expect(again == descriptor)
    }

    @Test(arguments: [[], [0x80], [0x80, 0x80], [0x80, 0x80, 0x80], [0x80, 0x40], [0x80, 0x20]] as [[UInt8]])
    func truncatedDescriptorsAreTypedErrors(bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            #expect(throws: VP8Error.truncatedDescriptor) { try VP8PayloadDescriptor.parse(buffer) }
        }
    }

    @Test func descriptorWithoutPayloadIsEmpty() {
        [UInt8]([0x10]).withUnsafeBytes { buffer in
            #expect(throws: VP8Error.emptyPayload) { try VP8Depacketizer.fragment(of: buffer) }
        }
    }

    @Test func packetizeThenDepacketizeRebuildsTheFrame() throws {
        // A keyframe header for 640x480 followed by filler.
        var frame: [UInt8] = [0x50, 0x42, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01]
        frame += (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var packetizer = VP8Packetizer(maxPayloadSize: 1200, initialPictureID: 0x7FFF)
        let payloads = packetizer.packetize(frame)
        #expect(payloads.count == 3)
        #expect(payloads.allSatisfy { $0.count <= 1200 })
        #expect(packetizer.pictureID == 0)  // wrapped within 15 bits
        var rebuilt: [UInt8] = []
        for (index, payload) in payloads.enumerated() {
            let fragment = try payload.withUnsafeBytes { (bytes) throws in try VP8Depacketizer.fragment(of: bytes) }
            #expect(fragment.startsFrame == (index == 0))
            #expect(fragment.pictureID == 0x7FFF)
            if index == 0 { #expect(fragment.isKeyframe) }
            rebuilt += payload[fragment.range]
        }
        #expect(rebuilt == frame)
        let size = rebuilt.withUnsafeBytes { VP8Depacketizer.keyframeSize(of: $0) }
        #expect(size?.width == 640 && size?.height == 480)
    }

    @Test func interframeIsNotAKeyframe() throws {
        let payload: [UInt8] = [0x10, 0x31, 0x02, 0x00]
        let fragment = try payload.withUnsafeBytes { (bytes) throws in try VP8Depacketizer.fragment(of: bytes) }
        #expect(fragment.startsFrame && !fragment.isKeyframe)
        #expect(payload.withUnsafeBytes { VP8Depacketizer.keyframeSize(of: $0) } == nil)
    }
}
