import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentMedia
@testable import AgentSession

/// H.264 access units through the ``JitterBuffer``: Annex B out, frames split only at the
/// marker or a new timestamp, keyframes wherever the IDR slice is.
@Suite struct H264DepacketizerAdapterTests {
    typealias Stream = H264TestStream
    /// Inserts one packet and drains at the same instant.
    static func feed(
        _ buffer: inout JitterBuffer, _ sequence: Int64, timestamp: Int64, marker: Bool = false, _ payload: [UInt8],
        at time: MediaInstant
    ) -> (JitterBuffer.InsertResult, [JitterBuffer.Output]) {
        JitterBufferTests.feed(&buffer, sequence: sequence, timestamp: timestamp, marker: marker, payload: payload, at: time)
    }

    static func frames(_ outputs: [JitterBuffer.Output]) -> [MediaFrame] { JitterBufferTests.frames(outputs) }
    static func losses(_ outputs: [JitterBuffer.Output]) -> [JitterBuffer.FrameLoss] { JitterBufferTests.losses(outputs) }

    /// The IDR picture's first slice in three FU-As (S, middle, E), 19 bytes after its header.
    static let idrPieces: [[UInt8]] = [
        [0x7C, 0x85] + Stream.idrSlice0[1..<8],
        [0x7C, 0x05] + Stream.idrSlice0[8..<14],
        [0x7C, 0x45] + Stream.idrSlice0[14...],
    ]
    static let parameterSets: [UInt8] = [0x78, 0x00, 0x16] + Stream.sps + [0x00, 0x04] + Stream.pps

    @Test func spsAndPPSInASTAPAThenAnIDRSliceInThreeFUAsAreOneKeyframe() {
        var buffer = JitterBuffer(depacketizer: H264DepacketizerAdapter())
        // A frame before, so the buffer knows 10 comes next: the FU-A start at 11 opens an access
        // unit too, and without it would make a frame of 11...13 once they are in.
        #expect(Self.frames(Self.feed(&buffer, 9, timestamp: 6000, marker: true, Stream.pSlice0, at: .ms(0)).1).count == 1)
        // Out of order: the marker packet first, the STAP-A last.
        #expect(Self.feed(&buffer, 13, timestamp: 9000, marker: true, Self.idrPieces[2], at: .ms(0)).1.isEmpty)
        #expect(Self.feed(&buffer, 11, timestamp: 9000, Self.idrPieces[0], at: .ms(1)).1.isEmpty)
        #expect(Self.feed(&buffer, 12, timestamp: 9000, Self.idrPieces[1], at: .ms(2)).1.isEmpty)
        let (result, outputs) = Self.feed(&buffer, 10, timestamp: 9000, Self.parameterSets, at: .ms(3))
        #expect(result == .accepted)
        let frames = Self.frames(outputs)
        #expect(frames.count == 1)
        #expect(frames.first?.bytes == Stream.annexB([Stream.sps, Stream.pps, Stream.idrSlice0]))
        #expect(frames.first?.isKeyframe == true, "the IDR slice comes after the payload that starts the frame")
        #expect(frames.first?.firstSequence == 10 && frames.first?.lastSequence == 13)
        #expect(buffer.counters.keyframes == 1)
    }

    @Test func aPFrameOfTwoSlicesInTwoPacketsIsOneFrame() {
        var buffer = JitterBuffer(depacketizer: H264DepacketizerAdapter())
        _ = Self.feed(&buffer, 100, timestamp: 3000, Stream.pSlice0, at: .ms(0))
        let (_, outputs) = Self.feed(&buffer, 101, timestamp: 3000, marker: true, Stream.pSlice1, at: .ms(1))
        #expect(Self.frames(outputs).map(\.bytes) == [Stream.annexB([Stream.pSlice0, Stream.pSlice1])])
        #expect(Self.frames(outputs).first?.isKeyframe == false)
    }

    /// AUD, SPS, PPS and the slice each look like an access unit's start; with VP8's rule they
    /// would be four frames. And the frame is a keyframe though its first packet is the AUD.
    @Test func nalUnitsThatEachLookLikeAStartStayInOneAccessUnit() {
        var buffer = JitterBuffer(depacketizer: H264DepacketizerAdapter())
        let units: [[UInt8]] = [[0x09, 0x10], Stream.sps, Stream.pps, Stream.idrSlice0, Stream.idrSlice1]
        var outputs: [JitterBuffer.Output] = []
        for (index, unit) in units.enumerated() {
            outputs += Self.feed(&buffer, 40 + Int64(index), timestamp: 0, marker: index == units.count - 1, unit, at: .ms(Int64(index))).1
        }
        #expect(Self.frames(outputs).map(\.bytes) == [Stream.annexB(units)])
        #expect(Self.frames(outputs).first?.isKeyframe == true)
    }

    @Test func aNewTimestampEndsAnAccessUnitWithoutItsMarker() {
        var buffer = JitterBuffer(depacketizer: H264DepacketizerAdapter())
        _ = Self.feed(&buffer, 1, timestamp: 3000, Stream.pSlice0, at: .ms(0))
        _ = Self.feed(&buffer, 2, timestamp: 3000, Stream.pSlice1, at: .ms(1))
        let (_, outputs) = Self.feed(&buffer, 3, timestamp: 6000, Stream.nextPSlice0, at: .ms(33))
        #expect(Self.frames(outputs).map(\.bytes) == [Stream.annexB([Stream.pSlice0, Stream.pSlice1])])
    }

    /// The lost middle piece leaves a hole: the access unit is given up whole (its PPS, a start
    /// of the same timestamp, does not open a frame of its remains) and the next one comes out.
    @Test func aLostMiddleFUAIsALossNotACorruptFrame() {
        var buffer = JitterBuffer(depacketizer: H264DepacketizerAdapter(), configuration: .init(maxWait: .milliseconds(200)))
        _ = Self.feed(&buffer, 50, timestamp: 0, Stream.sps, at: .ms(0))
        _ = Self.feed(&buffer, 51, timestamp: 0, Stream.pps, at: .ms(0))
        _ = Self.feed(&buffer, 52, timestamp: 0, Self.idrPieces[0], at: .ms(1))
        // 53 (the middle piece) is lost.
        _ = Self.feed(&buffer, 54, timestamp: 0, marker: true, Self.idrPieces[2], at: .ms(2))
        _ = Self.feed(&buffer, 55, timestamp: 3000, Stream.pSlice0, at: .ms(33))
        #expect(Self.feed(&buffer, 56, timestamp: 3000, marker: true, Stream.pSlice1, at: .ms(34)).1.isEmpty)
        let outputs = buffer.drain(now: .ms(200))
        #expect(Self.losses(outputs) == [JitterBuffer.FrameLoss(firstSequence: 50, lastSequence: 54, missingPackets: 1, discardedPackets: 4)])
        #expect(Self.frames(outputs).map(\.bytes) == [Stream.annexB([Stream.pSlice0, Stream.pSlice1])])
        #expect(buffer.counters.lossEvents == 1)
    }

    @Test func libavformatsPacketsComeOutAsItsAccessUnits() {
        var buffer = JitterBuffer(depacketizer: H264DepacketizerAdapter())
        var outputs: [JitterBuffer.Output] = []
        for (index, (payload, marker)) in Stream.ffmpegKeyframePayloads.enumerated() {
            outputs += Self.feed(&buffer, 1000 + Int64(index), timestamp: 0, marker: marker, payload, at: .ms(0)).1
        }
        outputs += Self.feed(&buffer, 1007, timestamp: 9000, marker: true, Stream.ffmpegPFramePayload, at: .ms(100)).1
        let frames = Self.frames(outputs)
        #expect(frames.map(\.bytes) == [
            Stream.annexB([Stream.sps, Stream.pps, Stream.idrSlice0, Stream.idrSlice1]),
            Stream.annexB([Stream.pSlice0, Stream.pSlice1]),
        ])
        #expect(frames.map(\.isKeyframe) == [true, false])
        #expect(frames.map(\.rtpTimestamp) == [0, 9000])
    }

    @Test func anInterleavedModePacketIsMalformed() {
        var buffer = JitterBuffer(depacketizer: H264DepacketizerAdapter())
        let (result, _) = Self.feed(&buffer, 7, timestamp: 0, marker: true, [0x19, 0x00, 0x00, 0x00, 0x01, 0x09], at: .ms(0))
        #expect(result == .malformed(.h264(.interleavedModePacket(type: 25))))
        #expect(buffer.counters.malformed == 1)
        #expect(DepacketizerError.h264(.emptyAggregation).description == "H.264: the STAP-A holds no NAL unit")
    }

    /// What the adapter tells the buffer, payload by payload.
    @Test func fragmentsSpanThePayloadAndFlagStartsAndIDRSlices() throws {
        let adapter = H264DepacketizerAdapter()
        #expect(!adapter.frameStartEndsPreviousFrame)
        #expect(VP8DepacketizerAdapter().frameStartEndsPreviousFrame && OpusDepacketizer().frameStartEndsPreviousFrame)
        let fragment = try Self.parameterSets.withUnsafeBytes { (bytes) throws in try adapter.fragment(of: bytes) }
        #expect(fragment == DepacketizedFragment(range: 0..<Self.parameterSets.count, startsFrame: true, isKeyframe: false))
        let idr = try Self.idrPieces[1].withUnsafeBytes { (bytes) throws in try adapter.fragment(of: bytes) }
        #expect(idr == DepacketizedFragment(range: 0..<8, startsFrame: false, isKeyframe: true))
    }
}
