import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct VP9DepacketizerTests {
    /// What Chromium sends first: a keyframe packet with a picture id, layer indices and an SS
    /// giving one 640x480 spatial layer and one picture group.
    static let keyframeStart: [UInt8] = [
        0xAA,  // I=1 P=0 L=1 F=0 B=1 E=0 V=1 Z=0
        0x80, 0x2A,  // M=1, picture id 42
        0x00,  // TID=0 U=0 SID=0 D=0
        0x07,  // TL0PICIDX
        0x18,  // SS: N_S=0 Y=1 G=1
        0x02, 0x80, 0x01, 0xE0,  // 640 x 480
        0x01,  // N_G = 1
        0x04, 0x01,  // TID=0 U=0 R=1, P_DIFF 1
        0x82, 0x49, 0x83,  // VP9 data
    ]

    @Test func parsesAKeyframeWithScalabilityStructure() throws {
        let fragment = try Self.keyframeStart.withUnsafeBytes { (bytes) throws in try VP9Depacketizer.fragment(of: bytes) }
        #expect(fragment.startsFrame && !fragment.endsFrame && fragment.isKeyframe)
        #expect(fragment.pictureID == 42)
        #expect(fragment.width == 640 && fragment.height == 480)
        #expect(fragment.range == 13..<16)
    }

    @Test func flexibleModeInterFrameReadsReferences() throws {
        // I=1 P=1 L=0 F=1 B=1 E=1: picture id 7 (7 bits), two P_DIFF (N=1 then N=0), then data.
        let packet: [UInt8] = [0xDC, 0x07, 0x03, 0x04, 0xAB]
        let fragment = try packet.withUnsafeBytes { (bytes) throws in try VP9Depacketizer.fragment(of: bytes) }
        #expect(fragment.startsFrame && fragment.endsFrame && !fragment.isKeyframe)
        #expect(fragment.pictureID == 7)
        #expect(fragment.range == 4..<5)
    }

    @Test(arguments: [
        ([], VP9Error.truncatedDescriptor),
        ([0x80], .truncatedDescriptor),
        ([0x80, 0x80], .truncatedDescriptor),
        ([0x02, 0x10, 0x02], .truncatedDescriptor),  // SS promises a size it does not carry
        ([0x50, 0x01, 0x01, 0x01, 0x01], .tooManyReferences),
        ([0x08], .emptyPayload),
    ] as [([UInt8], VP9Error)])
    func malformedPayloadsAreTypedErrors(bytes: [UInt8], expected: VP9Error) {
        bytes.withUnsafeBytes { buffer in
            #expect(throws: expected) { try VP9Depacketizer.fragment(of: buffer) }
        }
    }
}
