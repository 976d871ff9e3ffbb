import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct OpusPacketTests {
    @Test(arguments: [
        ([0xFC, 0xFF, 0xFE], 960),  // config 31 (CELT FB 20 ms), one frame
        ([0x78], 960),  // config 15 (hybrid FB 20 ms)
        ([0x08], 960),  // config 1 (SILK NB 20 ms)
        ([0x0B, 0x02], 1920),  // config 1, code 3 with two frames
        ([0x19], 5760),  // config 3 (SILK NB 60 ms), code 1: two frames, the 120 ms maximum
        ([0xE3, 0x08], 960),  // config 28 (CELT FB 2.5 ms), code 3, 8 frames
    ] as [([UInt8], Int)])
    func countsSamples(packet: [UInt8], samples: Int) throws {
        #expect(try OpusPacket.sampleCount(packet) == samples)
    }

    @Test func rejectsEmptyAndOverlongPackets() {
        #expect(throws: OpusPacket.Error.empty) { try OpusPacket.sampleCount([]) }
        #expect(throws: OpusPacket.Error.missingFrameCount) { try OpusPacket.sampleCount([0x0B]) }
        #expect(throws: OpusPacket.Error.tooLong(samples: 2880 * 3)) { try OpusPacket.sampleCount([0x1B, 0x03]) }
    }

    @Test func emptyFrameKeepsTheConfig() throws {
        let frame = OpusPacket.emptyFrame(config: 31, stereo: true)
        #expect(frame == [0xFC])
        #expect(try OpusPacket.sampleCount(frame) == 960)
    }
}
