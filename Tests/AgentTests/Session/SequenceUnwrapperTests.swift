import Testing

@testable import Agent
@testable import AgentSession

@Suite struct SequenceUnwrapperTests {
    @Test func sequenceNumbersCrossTheWrapForward() {
        var unwrapper = SequenceUnwrapper<UInt16>()
        let values: [UInt16] = [65533, 65534, 65535, 0, 1, 2]
        #expect(values.map { unwrapper.unwrap($0) } == [65533, 65534, 65535, 65536, 65537, 65538])
    }

    @Test func lateAndReorderedPacketsLandBeforeTheWrap() {
        var unwrapper = SequenceUnwrapper<UInt16>()
        #expect(unwrapper.unwrap(65535) == 65535)
        #expect(unwrapper.unwrap(1) == 65537)
        #expect(unwrapper.unwrap(0) == 65536)
        #expect(unwrapper.unwrap(65534) == 65534)
        #expect(unwrapper.highest == 65537)
        #expect(unwrapper.unwrap(2) == 65538)
    }

    @Test func timestampsUnwrapAcrossManyWraps() {
        var unwrapper = SequenceUnwrapper<UInt32>()
        var rtp: UInt32 = 0xFFFF_0000
        var expected = Int64(rtp)
        #expect(unwrapper.unwrap(rtp) == expected)
        for _ in 0..<100_000 {
            rtp &+= 90_000  // one second of video per step: wraps every ~13 h of media
            expected += 90_000
            #expect(unwrapper.unwrap(rtp) == expected)
        }
        #expect(expected > Int64(UInt32.max) * 2)
    }
}
