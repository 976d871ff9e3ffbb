import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct RemoteVideoSinkTests {
    typealias Media = RemoteTrackTestMedia

    /// A video sink recording its pictures and keyframe requests.
    private struct Harness {
        let pictures = Collected<RemoteVideoFrame>()
        let requests = Collected<RemoteVideoSink.KeyframeReason>()
        let sink: RemoteVideoSink

        init() {
            let pictures = pictures, requests = requests
            sink = RemoteVideoSink(delivery: .handler { pictures.append($0) }, onKeyframeNeeded: { requests.append($0) })
        }

        /// The frame indices (30 fps, from the RTP times) of the pictures delivered.
        var indices: [Int] { pictures.all.map { Int(($0.rtpTimestamp - Media.rtpStart) / 3000) } }
    }

    @Test func decodesEveryFrameFromTheFirstKeyframeOnWithItsTimes() throws {
        for codec in VPXCodec.allCases {
            let frames = try Media.videoFrames(count: 30, codec: codec, keyframesAt: [20])
            let harness = Harness()
            for (frame, _) in frames { harness.sink.receive(frame) }

            let pictures = harness.pictures.all
            #expect(harness.indices == Array(0..<30), "\(codec)")
            let scores = zip(pictures, frames).map { $0.image.psnr(against: $1.original) ?? 0 }
            print("\(codec) sink 160x120: PSNR min \(scores.min() ?? 0) dB")
            #expect(scores.allSatisfy { $0 > 28 })
            #expect(pictures.allSatisfy { $0.image.width == 160 && $0.image.height == 120 })
            #expect(zip(pictures, frames).allSatisfy {
                $0.wallTimeNanoseconds == $1.frame.wallTimeNanoseconds && $0.clockRate == 90_000
            })
            #expect(pictures[29].rtpTimestamp - pictures[0].rtpTimestamp == 29 * 3000)
            #expect(pictures[29].rtpTime - pictures[0].rtpTime == .nanoseconds(966_666_666))
            #expect(pictures.filter(\.isKeyframe).count == 2)
            #expect(harness.requests.all.isEmpty)
            let counters = harness.sink.counters
            #expect(counters.framesDecoded == 30 && counters.keyframesDecoded == 2 && counters.decodeErrors == 0)
            #expect(counters.width == 160 && counters.height == 120)
        }
    }

    @Test func joiningMidStreamWaitsForAKeyframeAndAsksOnce() throws {
        let frames = try Media.videoFrames(count: 30, keyframesAt: [20])
        let harness = Harness()
        for (frame, _) in frames[5...] { harness.sink.receive(frame) }
        #expect(harness.indices == Array(20..<30))
        #expect(harness.requests.all == [.start])
        #expect(harness.sink.counters.framesSkippedWaitingForKeyframe == 15)
        #expect(!harness.sink.isWaitingForKeyframe)
    }

    @Test func aLostFrameStopsDecodingUntilTheNextKeyframe() throws {
        let frames = try Media.videoFrames(count: 30, keyframesAt: [20])
        let harness = Harness()
        for (frame, _) in frames[0..<8] { harness.sink.receive(frame) }
        // Frame 8 never completes; the channel's jitter buffer reports the loss.
        harness.sink.frameLost()
        #expect(harness.sink.isWaitingForKeyframe)
        for (frame, _) in frames[9...] { harness.sink.receive(frame) }
        #expect(harness.indices == Array(0..<8) + Array(20..<30))
        #expect(harness.requests.all == [.frameLost], "asked once, not once per dropped frame")
        let counters = harness.sink.counters
        #expect(counters.framesSkippedWaitingForKeyframe == 11)
        #expect(counters.keyframeRequests == 1)
        #expect(!harness.sink.isWaitingForKeyframe)
    }

    @Test func aCorruptFrameIsADecodeErrorAndAsksForAKeyframe() throws {
        let frames = try Media.videoFrames(count: 30, keyframesAt: [20])
        let harness = Harness()
        for (var frame, _) in frames {
            if frame.rtpTimestamp == Media.rtpStart + 10 * 3000 { frame.bytes = Array(frame.bytes.prefix(2)) }
            harness.sink.receive(frame)
        }
        #expect(harness.indices == Array(0..<10) + Array(20..<30))
        #expect(harness.requests.all == [.decodeError])
        #expect(harness.sink.counters.decodeErrors == 1)
        #expect(harness.sink.counters.framesSkippedWaitingForKeyframe == 9)
    }

    @Test func aCodecChangeStartsANewDecoder() throws {
        let vp8 = try Media.videoFrames(count: 5, codec: .vp8)
        let vp9 = try Media.videoFrames(count: 5, codec: .vp9)
        let harness = Harness()
        for (frame, _) in vp8 + vp9 { harness.sink.receive(frame) }
        #expect(harness.pictures.count == 10)
        #expect(harness.requests.all == [.codecChanged])
        var audio = vp8[0].frame
        audio.kind = .audio
        audio.codec = .opus
        harness.sink.receive(audio)
        #expect(harness.sink.counters.framesUnsupported == 1)
    }

    @Test func h264FramesDecodeWithOpenH264() throws {
        let template = try Media.videoFrames(count: 1, codec: .vp8)[0].frame
        let encoder = try OpenH264Encoder()
        let harness = Harness()
        for index in 0..<10 {
            let picture = try I420Frame.testPattern(width: 160, height: 120, frameIndex: index)
            guard let unit = try encoder.encode(picture, timestampMs: Int64(index) * 33) else { continue }
            var frame = template
            (frame.codec, frame.bytes, frame.isKeyframe) = (.h264, unit.bytes, unit.isKeyframe)
            harness.sink.receive(frame)
        }
        #expect(harness.pictures.count == 10)
        #expect(harness.sink.counters.decodeErrors == 0 && harness.sink.counters.framesUnsupported == 0)
        #expect(harness.sink.counters.width == 160 && harness.sink.counters.height == 120)
    }
}
