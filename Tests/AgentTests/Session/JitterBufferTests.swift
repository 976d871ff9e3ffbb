import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession

@Suite struct JitterBufferTests {
    /// Inserts one payload and drains at the same instant.
    static func feed(
        _ buffer: inout JitterBuffer, sequence: Int64, timestamp: Int64, marker: Bool = false, payload: [UInt8],
        at time: MediaInstant, requested: Bool = false
    ) -> (JitterBuffer.InsertResult, [JitterBuffer.Output]) {
        let result = payload.withUnsafeBytes { bytes in
            buffer.insert(sequence: sequence, timestamp: timestamp, marker: marker, payload: bytes, arrival: time, requested: requested)
        }
        return (result, buffer.drain(now: time))
    }

    static func frames(_ outputs: [JitterBuffer.Output]) -> [MediaFrame] {
        outputs.compactMap { if case .frame(let frame) = $0 { frame } else { nil } }
    }

    static func losses(_ outputs: [JitterBuffer.Output]) -> [JitterBuffer.FrameLoss] {
        outputs.compactMap { if case .loss(let loss) = $0 { loss } else { nil } }
    }

    @Test func opusPacketsInOrderAreFramesAtOnce() {
        var buffer = JitterBuffer(depacketizer: OpusDepacketizer())
        var emitted: [MediaFrame] = []
        for index in 0..<5 {
            let (result, outputs) = Self.feed(
                &buffer, sequence: 100 + Int64(index), timestamp: 960 * Int64(index), payload: [0xFC, UInt8(index)],
                at: .ms(Int64(20 * index)))
            #expect(result == .accepted)
            emitted += Self.frames(outputs)
        }
        #expect(emitted.map(\.bytes) == [[0xFC, 0], [0xFC, 1], [0xFC, 2], [0xFC, 3], [0xFC, 4]])
        #expect(emitted.map(\.rtpTimestamp) == [0, 960, 1920, 2880, 3840])
        #expect(emitted.map(\.firstSequence) == [100, 101, 102, 103, 104])
        #expect(buffer.count == 0)
        #expect(buffer.counters.frames == 5)
        #expect(buffer.counters.lost == 0)
    }

    @Test func vp8FrameOverThreePacketsIsAssembled() {
        var buffer = JitterBuffer(depacketizer: VP8DepacketizerAdapter())
        let first = RTPTestPacket.vp8Payload(startsFrame: true, keyframe: true, body: [0xA1, 0xA2])
        let middle = RTPTestPacket.vp8Payload(startsFrame: false, body: [0xB1, 0xB2, 0xB3])
        let last = RTPTestPacket.vp8Payload(startsFrame: false, body: [0xC1])
        // Reordered: last and middle first; nothing is emitted until all three are there.
        #expect(Self.feed(&buffer, sequence: 12, timestamp: 3000, marker: true, payload: last, at: .ms(0)).1.isEmpty)
        #expect(Self.feed(&buffer, sequence: 11, timestamp: 3000, payload: middle, at: .ms(1)).1.isEmpty)
        #expect(buffer.count == 2)
        let (_, outputs) = Self.feed(&buffer, sequence: 10, timestamp: 3000, payload: first, at: .ms(2))
        let frames = Self.frames(outputs)
        #expect(frames.count == 1)
        #expect(frames.first?.bytes == [0x00, 0xA1, 0xA2, 0xB1, 0xB2, 0xB3, 0xC1])
        #expect(frames.first?.isKeyframe == true)
        #expect(frames.first?.firstSequence == 10)
        #expect(frames.first?.lastSequence == 12)
        #expect(frames.first?.rtpTimestamp == 3000)
        #expect(frames.first?.completedAt == .ms(2))
        #expect(buffer.counters.keyframes == 1)
    }

    @Test func timestampChangeEndsAFrameWithoutMarker() {
        var buffer = JitterBuffer(depacketizer: VP8DepacketizerAdapter())
        _ = Self.feed(&buffer, sequence: 1, timestamp: 0, payload: RTPTestPacket.vp8Payload(startsFrame: true, body: [1]), at: .ms(0))
        let (_, outputs) = Self.feed(
            &buffer, sequence: 2, timestamp: 3000, payload: RTPTestPacket.vp8Payload(startsFrame: true, body: [2]), at: .ms(33))
        #expect(Self.frames(outputs).map(\.bytes) == [[0x01, 1]])
        #expect(Self.frames(outputs).first?.isKeyframe == false)
    }

    @Test func frameMissingItsMiddleIsGivenUpAfterMaxWait() {
        var buffer = JitterBuffer(depacketizer: VP8DepacketizerAdapter(), configuration: .init(maxWait: .milliseconds(300)))
        _ = Self.feed(&buffer, sequence: 20, timestamp: 0, payload: RTPTestPacket.vp8Payload(startsFrame: true, keyframe: true, body: [1]), at: .ms(0))
        // 21 is lost; 22 ends frame 1, 23 is a whole next frame.
        _ = Self.feed(&buffer, sequence: 22, timestamp: 0, marker: true, payload: RTPTestPacket.vp8Payload(startsFrame: false, body: [3]), at: .ms(2))
        let (_, early) = Self.feed(
            &buffer, sequence: 23, timestamp: 3000, marker: true, payload: RTPTestPacket.vp8Payload(startsFrame: true, body: [4]),
            at: .ms(33))
        #expect(early.isEmpty)
        #expect(buffer.drain(now: .ms(299)).isEmpty)
        let outputs = buffer.drain(now: .ms(300))
        #expect(
            Self.losses(outputs) == [JitterBuffer.FrameLoss(firstSequence: 20, lastSequence: 22, missingPackets: 1, discardedPackets: 2)])
        #expect(Self.frames(outputs).map(\.firstSequence) == [23])
        #expect(buffer.counters.lost == 1)
        #expect(buffer.counters.discarded == 2)
        #expect(buffer.counters.lossEvents == 1)
        // The missing packet arriving now is late, not a frame.
        let (late, _) = Self.feed(&buffer, sequence: 21, timestamp: 0, payload: [0x00, 2], at: .ms(301))
        #expect(late == .late)
        #expect(buffer.counters.late == 1)
    }

    @Test func retransmissionCompletesTheFrameAndCountsRecovered() {
        var buffer = JitterBuffer(depacketizer: VP8DepacketizerAdapter())
        _ = Self.feed(&buffer, sequence: 5, timestamp: 90, payload: RTPTestPacket.vp8Payload(startsFrame: true, keyframe: true, body: [1]), at: .ms(0))
        _ = Self.feed(&buffer, sequence: 7, timestamp: 90, marker: true, payload: [0x00, 3], at: .ms(1))
        let (result, outputs) = Self.feed(&buffer, sequence: 6, timestamp: 90, payload: [0x00, 2], at: .ms(120), requested: true)
        #expect(result == .accepted)
        #expect(Self.frames(outputs).map(\.bytes) == [[0x00, 1, 2, 3]])
        #expect(buffer.counters.recovered == 1)
        #expect(buffer.counters.lost == 0)
    }

    @Test func joiningMidFrameDropsTheFragmentOnceALaterFrameStarts() {
        var buffer = JitterBuffer(depacketizer: VP8DepacketizerAdapter())
        #expect(Self.feed(&buffer, sequence: 500, timestamp: 0, payload: [0x00, 1], at: .ms(0)).1.isEmpty)
        #expect(Self.feed(&buffer, sequence: 501, timestamp: 0, marker: true, payload: [0x00, 2], at: .ms(1)).1.isEmpty)
        let (_, outputs) = Self.feed(
            &buffer, sequence: 502, timestamp: 3000, marker: true,
            payload: RTPTestPacket.vp8Payload(startsFrame: true, keyframe: true, body: [3]), at: .ms(2))
        #expect(Self.losses(outputs) == [JitterBuffer.FrameLoss(firstSequence: 500, lastSequence: 501, missingPackets: 0, discardedPackets: 2)])
        #expect(Self.frames(outputs).map(\.bytes) == [[0x00, 3]])
        #expect(buffer.counters.lost == 0)
    }

    @Test func refusedPayloadAccountsForItsNumberAndSpoilsOnlyItsFrame() {
        var buffer = JitterBuffer(depacketizer: VP8DepacketizerAdapter())
        _ = Self.feed(&buffer, sequence: 1, timestamp: 0, payload: RTPTestPacket.vp8Payload(startsFrame: true, keyframe: true, body: [1]), at: .ms(0))
        #expect(Self.feed(&buffer, sequence: 2, timestamp: 0, payload: [0x80], at: .ms(1)).0 == .malformed(.vp8(.truncatedDescriptor)))
        let (_, outputs) = Self.feed(&buffer, sequence: 3, timestamp: 0, marker: true, payload: [0x00, 3], at: .ms(2))
        #expect(Self.losses(outputs) == [JitterBuffer.FrameLoss(firstSequence: 1, lastSequence: 3, missingPackets: 0, discardedPackets: 3)])
        let (_, next) = Self.feed(
            &buffer, sequence: 4, timestamp: 3000, marker: true, payload: RTPTestPacket.vp8Payload(startsFrame: true, body: [4]), at: .ms(3))
        #expect(Self.frames(next).map(\.firstSequence) == [4])
        #expect(buffer.counters.malformed == 1)
        #expect(buffer.counters.received == 3)
    }

    @Test func vp9PictureWithTwoSpatialLayersIsOneFrame() {
        var buffer = JitterBuffer(depacketizer: VP9DepacketizerAdapter())
        // Descriptor: I=0 P=0 L=1 F=0 B=1 E=1 (0x2C); layer byte TID 0, SID 0 or 1; TL0PICIDX.
        let base: [UInt8] = [0x2C, 0x00, 0x07, 0xB0, 0xB1]
        let enhancement: [UInt8] = [0x2C, 0x02, 0x07, 0xE0]
        #expect(Self.feed(&buffer, sequence: 1, timestamp: 0, payload: base, at: .ms(0)).1.isEmpty)
        let (_, outputs) = Self.feed(&buffer, sequence: 2, timestamp: 0, marker: true, payload: enhancement, at: .ms(1))
        let frames = Self.frames(outputs)
        #expect(frames.map(\.bytes) == [[0xB0, 0xB1, 0xE0]])
        #expect(frames.first?.isKeyframe == true)
        // An inter picture (P=1: 0x6C) on the base layer alone.
        let (_, next) = Self.feed(&buffer, sequence: 3, timestamp: 3000, marker: true, payload: [0x6C, 0x00, 0x08, 0xC0], at: .ms(33))
        #expect(Self.frames(next).map(\.isKeyframe) == [false])
        #expect(Self.feed(&buffer, sequence: 4, timestamp: 6000, payload: [0x2C, 0x00], at: .ms(34)).0 == .malformed(.vp9(.truncatedDescriptor)))
    }

    /// A buggy codec adapter naming bytes past the payload end.
    struct RogueDepacketizer: Depacketizer {
        func fragment(of payload: UnsafeRawBufferPointer) throws(DepacketizerError) -> DepacketizedFragment {
            DepacketizedFragment(range: 0..<(payload.count + 5), startsFrame: true, isKeyframe: true, endsFrame: true)
        }
    }

    @Test func depacketizerRangeOutsideThePayloadIsRefusedNotTrapped() {
        var buffer = JitterBuffer(depacketizer: RogueDepacketizer())
        let (result, outputs) = Self.feed(&buffer, sequence: 1, timestamp: 0, payload: [1, 2], at: .ms(0))
        #expect(result == .malformed(.rangeOutsidePayload))
        #expect(Self.frames(outputs).isEmpty)
        #expect(buffer.counters.malformed == 1)
    }

    @Test func duplicatesAreCountedInBufferAndAfterEmission() {
        var buffer = JitterBuffer(depacketizer: OpusDepacketizer())
        _ = Self.feed(&buffer, sequence: 1, timestamp: 0, payload: [1], at: .ms(0))
        _ = Self.feed(&buffer, sequence: 3, timestamp: 1920, payload: [3], at: .ms(40))
        #expect(Self.feed(&buffer, sequence: 3, timestamp: 1920, payload: [3], at: .ms(41)).0 == .duplicate)  // held
        #expect(Self.feed(&buffer, sequence: 1, timestamp: 0, payload: [1], at: .ms(42)).0 == .duplicate)  // emitted
        #expect(buffer.counters.duplicates == 2)
        #expect(buffer.counters.received == 2)
    }

    @Test func sequenceNumbersAcrossTheWrapStayInOrder() {
        var buffer = JitterBuffer(depacketizer: OpusDepacketizer())
        var unwrapper = SequenceUnwrapper<UInt16>()
        var emitted: [MediaFrame] = []
        // 65535 and 0 swapped on the wire.
        for (index, wire) in ([65534, 0, 65535, 1] as [UInt16]).enumerated() {
            emitted += Self.frames(
                Self.feed(&buffer, sequence: unwrapper.unwrap(wire), timestamp: Int64(index), payload: [UInt8(truncatingIfNeeded: wire)], at: .ms(Int64(index))).1)
        }
        #expect(emitted.map(\.firstSequence) == [65534, 65535, 65536, 65537])
        #expect(emitted.map(\.bytes) == [[0xFE], [0xFF], [0x00], [0x01]])
    }

    @Test func capacityBoundsMemoryAndCountsTheGapLost() {
        var buffer = JitterBuffer(depacketizer: OpusDepacketizer(), configuration: .init(capacity: 64))
        _ = Self.feed(&buffer, sequence: 0, timestamp: 0, payload: [0], at: .ms(0))
        _ = Self.feed(&buffer, sequence: 2, timestamp: 1920, payload: [2], at: .ms(1))  // 1 missing: blocks
        let (result, outputs) = Self.feed(&buffer, sequence: 30_002, timestamp: 999, payload: [9], at: .ms(2))
        #expect(result == .accepted)
        // 1 is given up (frame 2 then comes out), then 3…29938 are lost at once: only the last
        // `capacity` numbers before 30002 (29939…30001) are still waited for.
        #expect(Self.losses(outputs).map(\.missingPackets) == [1, 29_936])
        #expect(Self.frames(outputs).map(\.firstSequence) == [2])
        #expect(buffer.count == 1)
        #expect(buffer.nextSequence == 29_939)
        let later = buffer.drain(now: .ms(602))
        #expect(Self.losses(later).map(\.missingPackets) == [63])
        #expect(Self.frames(later).map(\.firstSequence) == [30_002])
        #expect(buffer.counters.lost == 30_000)
        #expect(buffer.count == 0)
    }

    @Test func malformedPayloadIsRefusedAndCounted() {
        var buffer = JitterBuffer(depacketizer: VP8DepacketizerAdapter())
        #expect(Self.feed(&buffer, sequence: 1, timestamp: 0, payload: [], at: .ms(0)).0 == .malformed(.vp8(.truncatedDescriptor)))
        #expect(Self.feed(&buffer, sequence: 2, timestamp: 0, payload: [0x10], at: .ms(0)).0 == .malformed(.vp8(.emptyPayload)))
        var opus = JitterBuffer(depacketizer: OpusDepacketizer())
        #expect(Self.feed(&opus, sequence: 1, timestamp: 0, payload: [], at: .ms(0)).0 == .malformed(.emptyPayload))
        #expect(buffer.counters.malformed == 2)
        #expect(buffer.counters.received == 0)
        #expect(buffer.count == 2)  // held as unusable placeholders, so no hole is waited on
    }
}
