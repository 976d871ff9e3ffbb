import Agent
import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import BotKit

/// Collects what a ``VideoTrack`` hands its sink.
final class VideoTrackSinkRecorder: Sendable {
    private let received = Mutex<[VideoTrack.EncodedFrame]>([])
    var frames: [VideoTrack.EncodedFrame] { received.withLock { $0 } }

    func attach(to track: VideoTrack) {
        track.setSink { [self] frame in received.withLock { $0.append(frame) } }
    }

    /// A new track with a new recorder as its sink.
    static func attachedTrack(_ configuration: VideoTrack.Configuration = .init()) throws -> (VideoTrack, VideoTrackSinkRecorder) {
        let track = try VideoTrack(configuration: configuration)
        let recorder = VideoTrackSinkRecorder()
        recorder.attach(to: track)
        return (track, recorder)
    }
}

/// Capture times `index / framesPerSecond` seconds after `start`, in whole nanoseconds.
func videoCaptureTime(_ index: Int, framesPerSecond: Int, from start: ContinuousClock.Instant) -> ContinuousClock.Instant {
    start + .nanoseconds(Int64(index) * 1_000_000_000 / Int64(framesPerSecond))
}

@Suite(.offThePool) struct VideoTrackTests {
    let start = ContinuousClock.now

    /// Pushes frames `indices` of `square`, each captured at index / 30 s, and returns the pictures.
    private func pushSquare(_ square: MovingSquare, to track: VideoTrack, frames indices: Range<Int>) throws -> [I420Frame] {
        var pushed: [I420Frame] = []
        for index in indices {
            let picture = square.frame(at: index)
            try track.push(picture, capturedAt: videoCaptureTime(index, framesPerSecond: 30, from: start))
            pushed.append(picture)
        }
        return pushed
    }

    @Test func sixtyFramesDecodeSharplyWithRTPStepsOf3000() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack()
        let square = try MovingSquare(width: 640, height: 480)
        let inputs = try pushSquare(square, to: track, frames: 0..<60)

        let frames = sink.frames
        #expect(frames.count == 60)
        #expect(frames.map(\.rtpTimestamp) == (0..<60).map { Int64($0) * 3000 })
        #expect(frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0])
        #expect(frames.map(\.capturedAt) == (0..<60).map { videoCaptureTime($0, framesPerSecond: 30, from: start) })

        let decoder = try VPXDecoder(codec: .vp8)
        var worstPSNR = Double.infinity, worstOffset = 0.0
        for (index, frame) in frames.enumerated() {
            #expect(frame.width == 640 && frame.height == 480)
            let pictures = try decoder.decode(frame.bytes)
            try #require(pictures.count == 1)
            #expect(pictures[0].width == 640 && pictures[0].height == 480)
            worstPSNR = min(worstPSNR, try #require(pictures[0].lumaPSNR(against: inputs[index])))
            // The square is where the generator put it: the decoded video moves.
            let found = try #require(MovingSquare.locateSquare(in: pictures[0]))
            let expected = square.center(at: index)
            worstOffset = max(worstOffset, abs(found.x - expected.x), abs(found.y - expected.y))
        }
        print("VideoTrack 640x480 x60 @1 Mbps: worst luma PSNR \(worstPSNR) dB, worst square offset \(worstOffset) px, \(track.statistics.bytes) bytes")
        #expect(worstPSNR > 30)
        #expect(worstOffset < 1)

        let statistics = track.statistics
        #expect(statistics.framesPushed == 60 && statistics.framesEncoded == 60 && statistics.framesSent == 60)
        #expect(statistics.keyframes == 1 && statistics.resolutionChanges == 0)
        #expect(statistics.framesDroppedForRate == 0 && statistics.framesRejected == 0)
        #expect(statistics.bytes == frames.reduce(0) { $0 + $1.bytes.count })
        #expect(statistics.width == 640 && statistics.height == 480)
    }

    @Test func sizeSwitchesMidStreamDecodeAndStartWithKeyframes() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack()
        let sizes = [(640, 480), (320, 180), (1280, 720)]
        var inputs: [I420Frame] = []
        for (segment, (width, height)) in sizes.enumerated() {
            let square = try MovingSquare(width: width, height: height)
            inputs += try pushSquare(square, to: track, frames: (segment * 10)..<(segment * 10 + 10))
        }

        let frames = sink.frames
        #expect(frames.count == 30)
        #expect(frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 10, 20])
        #expect(frames.map(\.rtpTimestamp) == (0..<30).map { Int64($0) * 3000 })
        // One decoder for the whole stream, as a receiver has.
        let decoder = try VPXDecoder(codec: .vp8)
        for (index, frame) in frames.enumerated() {
            let (width, height) = sizes[index / 10]
            #expect(frame.width == width && frame.height == height)
            let pictures = try decoder.decode(frame.bytes)
            try #require(pictures.count == 1)
            #expect(pictures[0].width == width && pictures[0].height == height)
            let psnr = try #require(pictures[0].lumaPSNR(against: inputs[index]))
            #expect(psnr > 30, "frame \(index) at \(width)x\(height): \(psnr) dB")
        }
        #expect(track.statistics.resolutionChanges == 2)
        #expect(track.statistics.keyframes == 3)
    }

    @Test func oddSizesEncodeAndDecode() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack()
        let square = try MovingSquare(width: 321, height: 241)
        let inputs = try pushSquare(square, to: track, frames: 0..<20)
        let decoder = try VPXDecoder(codec: .vp8)
        #expect(sink.frames.count == 20)
        for (index, frame) in sink.frames.enumerated() {
            let pictures = try decoder.decode(frame.bytes)
            try #require(pictures.count == 1)
            #expect(pictures[0].width == 321 && pictures[0].height == 241)
            #expect(try #require(pictures[0].lumaPSNR(against: inputs[index])) > 30)
        }
    }

    @Test func requestKeyframeMakesTheNextFrameAKeyframe() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack()
        let square = try MovingSquare(width: 320, height: 240)
        _ = try pushSquare(square, to: track, frames: 0..<10)
        track.requestKeyframe()
        _ = try pushSquare(square, to: track, frames: 10..<20)
        #expect(sink.frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 10])
        #expect(track.statistics.keyframeRequests == 1 && track.statistics.keyframes == 2)
    }

    /// The Bot answers PLI from its network loop; the sink runs on the pusher's thread and may
    /// call back into the track without deadlocking.
    @Test func theSinkMayRequestAKeyframeAndReadStatistics() throws {
        let track = try VideoTrack()
        let keyframes = Mutex<[Bool]>([])
        let countsSeen = Mutex<[Int]>([])
        track.setSink { [weak track] frame in
            keyframes.withLock { $0.append(frame.isKeyframe) }
            guard let track else { return }
            countsSeen.withLock { $0.append(track.statistics.framesSent) }
            if frame.rtpTimestamp == 5 * 3000 { track.requestKeyframe() }
        }
        _ = try pushSquare(try MovingSquare(width: 160, height: 120), to: track, frames: 0..<10)
        #expect(keyframes.withLock { $0 } == [true, false, false, false, false, false, true, false, false, false])
        #expect(countsSeen.withLock { $0 } == Array(1...10))
    }

    @Test func pushingAt60FramesPerSecondToA30FpsTrackDropsHalf() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(framesPerSecond: 30))
        let square = try MovingSquare(width: 320, height: 240)
        var results: [VideoTrack.PushResult] = []
        for index in 0..<120 {
            results.append(try track.push(square.frame(at: index),
                                          capturedAt: videoCaptureTime(index, framesPerSecond: 60, from: start)))
        }
        let statistics = track.statistics
        print("VideoTrack 60 fps into 30: \(statistics.framesEncoded) encoded, \(statistics.framesDroppedForRate) dropped")
        #expect(statistics.framesPushed == 120)
        #expect(statistics.framesEncoded == 60 && statistics.framesDroppedForRate == 60)
        #expect(results.filter { $0 == .droppedForRate }.count == 60)
        #expect(results.enumerated().allSatisfy { ($0.offset % 2 == 0) == !$0.element.isDropped })
        #expect(sink.frames.map(\.rtpTimestamp) == (0..<60).map { Int64($0) * 3000 })
    }

    @Test func framesWithoutASinkAreDroppedAndCounted() throws {
        let track = try VideoTrack()
        let square = try MovingSquare(width: 160, height: 120)
        let first = try track.push(square.frame(at: 0), capturedAt: videoCaptureTime(0, framesPerSecond: 30, from: start))
        #expect(first == .droppedWithoutSink)
        let sink = VideoTrackSinkRecorder()
        sink.attach(to: track)
        let second = try track.push(square.frame(at: 1), capturedAt: videoCaptureTime(1, framesPerSecond: 30, from: start))
        #expect(second.frame == sink.frames.first)
        #expect(second.frame?.rtpTimestamp == 3000)
        #expect(sink.frames.count == 1)
        let statistics = track.statistics
        #expect(statistics.framesEncoded == 2 && statistics.framesDroppedWithoutSink == 1 && statistics.framesSent == 1)
    }

    @Test func theSinkMayCloseTheTrack() throws {
        let track = try VideoTrack()
        let delivered = Mutex(0)
        track.setSink { [weak track] _ in
            if delivered.withLock({ $0 += 1; return $0 }) == 3 { track?.close() }
        }
        let square = try MovingSquare(width: 160, height: 120)
        _ = try pushSquare(square, to: track, frames: 0..<3)
        #expect(throws: VideoTrackError.closed) {
            try track.push(square.frame(at: 3), capturedAt: videoCaptureTime(3, framesPerSecond: 30, from: start))
        }
        #expect(delivered.withLock { $0 } == 3)
    }

    /// Pushes from several threads at once are serialized: every push is accounted for once and
    /// the sink sees strictly increasing RTP times.
    @Test func concurrentPushesAreSerialized() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(framesPerSecond: 120))
        let square = try MovingSquare(width: 96, height: 64)
        let dropped = Mutex(0), failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<25 {
                do {
                    if try track.push(square.frame(at: thread * 25 + index)).isDropped { dropped.withLock { $0 += 1 } }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        let statistics = track.statistics
        let frames = sink.frames
        #expect(failures.withLock { $0 } == 0)
        #expect(statistics.framesPushed == 100)
        #expect(statistics.framesEncoded + statistics.framesDroppedForRate == 100)
        #expect(dropped.withLock { $0 } == statistics.framesDroppedForRate)
        #expect(frames.count == statistics.framesEncoded && frames.count >= 1)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.rtpTimestamp < $1.rtpTimestamp })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.capturedAt < $1.capturedAt })
    }

    // MARK: H.264 and VP9

    /// The NAL unit types of an H.264 access unit, in order (7 SPS, 8 PPS, 5 IDR slice, 1 other slice).
    static func nalTypes(_ frame: VideoTrack.EncodedFrame) -> [UInt8] {
        AnnexBScanner.nalUnitBytes(in: frame.bytes).compactMap { $0.first.map { $0 & 0x1F } }
    }

    /// The size the SPS of an H.264 access unit says, if it has one.
    static func spsSize(_ frame: VideoTrack.EncodedFrame) throws -> (width: Int, height: Int)? {
        guard let unit = AnnexBScanner.nalUnitBytes(in: frame.bytes).first(where: { $0.first.map { $0 & 0x1F } == 7 }) else { return nil }
        let sps = try H264SequenceParameterSet(nalUnit: unit)
        return (sps.width, sps.height)
    }

    /// Decodes `frames` with one decoder, as a receiver does, and returns the worst mean luma
    /// difference from `inputs` (same index) and the decoded sizes.
    static func decodeAll(_ frames: [VideoTrack.EncodedFrame], codec: MediaCodec, inputs: [I420Frame]) throws -> (worst: Double, sizes: [String]) {
        let decoder = try VideoDecoder(codec: codec)
        var worst = 0.0
        var sizes: [String] = []
        for (index, frame) in frames.enumerated() {
            let pictures = try decoder.decode(frame.bytes)
            try #require(pictures.count == 1, "frame \(index) gave \(pictures.count) pictures")
            sizes.append("\(pictures[0].width)x\(pictures[0].height)")
            worst = max(worst, pictures[0].meanLumaDifference(from: inputs[index]))
        }
        return (worst, sizes)
    }

    @Test(arguments: [MediaCodec.h264, .vp9])
    func sixtyFramesOfH264OrVP9DecodeBackCloseToTheInput(_ codec: MediaCodec) throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(codec: codec))
        let square = try MovingSquare(width: 640, height: 480)
        let inputs = try pushSquare(square, to: track, frames: 0..<60)

        let frames = sink.frames
        #expect(frames.count == 60)
        #expect(frames.allSatisfy { $0.codec == codec && $0.width == 640 && $0.height == 480 })
        #expect(frames.map(\.rtpTimestamp) == (0..<60).map { Int64($0) * 3000 })
        #expect(frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0])
        if codec == .h264 {
            // Annex B: the IDR brings its parameter sets; the others are single non-IDR slices.
            #expect(Self.nalTypes(frames[0]) == [7, 8, 5])
            #expect(frames.dropFirst().allSatisfy { Self.nalTypes($0) == [1] })
            #expect(try Self.spsSize(frames[0]).map { "\($0.width)x\($0.height)" } == "640x480")
        }
        let (worst, sizes) = try Self.decodeAll(frames, codec: codec, inputs: inputs)
        print("VideoTrack \(codec.name) 640x480 x60 @1 Mbps: worst mean luma difference \(worst), \(track.statistics.bytes) bytes")
        #expect(sizes.allSatisfy { $0 == "640x480" })
        #expect(worst < 3, "worst mean luma difference \(worst)")

        let statistics = track.statistics
        #expect(statistics.framesEncoded == 60 && statistics.framesSent == 60 && statistics.keyframes == 1)
        #expect(statistics.bytes == frames.reduce(0) { $0 + $1.bytes.count })
        #expect(statistics.codec == codec && statistics.codecChanges == 0)
    }

    @Test(arguments: [MediaCodec.h264, .vp9])
    func requestKeyframeGivesAnIDROrKeyframeThatDecodesOnItsOwn(_ codec: MediaCodec) throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(codec: codec))
        let square = try MovingSquare(width: 320, height: 240)
        var inputs = try pushSquare(square, to: track, frames: 0..<10)
        track.requestKeyframe()
        inputs += try pushSquare(square, to: track, frames: 10..<20)
        let frames = sink.frames
        #expect(frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 10])
        if codec == .h264 { #expect(Self.nalTypes(frames[10]) == [7, 8, 5]) }
        // A receiver that starts at the requested keyframe decodes everything after it.
        let (worst, _) = try Self.decodeAll(Array(frames[10...]), codec: codec, inputs: Array(inputs[10...]))
        #expect(worst < 3, "worst mean luma difference \(worst) from the requested keyframe on")
        #expect(track.statistics.keyframeRequests == 1 && track.statistics.keyframes == 2)
    }

    @Test(arguments: [MediaCodec.h264, .vp9])
    func aNewSizeStartsOverWithAKeyframe(_ codec: MediaCodec) throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(codec: codec))
        let sizes = [(640, 480), (320, 180), (1280, 720)]
        var inputs: [I420Frame] = []
        for (segment, (width, height)) in sizes.enumerated() {
            inputs += try pushSquare(try MovingSquare(width: width, height: height), to: track, frames: (segment * 10)..<(segment * 10 + 10))
        }
        let frames = sink.frames
        #expect(frames.count == 30)
        #expect(frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 10, 20])
        if codec == .h264 {
            // Each keyframe carries a new SPS with the new size.
            #expect(try [0, 10, 20].map { try Self.spsSize(frames[$0]).map { "\($0.width)x\($0.height)" } } == ["640x480", "320x180", "1280x720"])
        }
        let (worst, decodedSizes) = try Self.decodeAll(frames, codec: codec, inputs: inputs)
        #expect(decodedSizes == sizes.flatMap { size in Array(repeating: "\(size.0)x\(size.1)", count: 10) })
        #expect(worst < 3, "worst mean luma difference \(worst)")
        #expect(track.statistics.resolutionChanges == 2 && track.statistics.keyframes == 3)
    }

    /// H.264 (4:2:0) codes even sizes only; libopenh264 would drop the last row and column of
    /// an odd one without saying so. The track refuses it, and goes on.
    @Test func h264RefusesOddAndTinySizesWithATypedErrorAndGoesOn() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(codec: .h264))
        for (width, height) in [(321, 241), (320, 241), (8, 8), (4098, 2306)] {
            #expect {
                try track.push(try I420Frame(width: width, height: height), capturedAt: start)
            } throws: { error in
                guard case VideoTrackError.unsupportedSize(.h264, width, height, let reason) = error else { return false }
                return reason.contains("H.264")
            }
        }
        let result = try track.push(try MovingSquare(width: 322, height: 242).frame(at: 0), capturedAt: start)
        #expect(result.frame?.isKeyframe == true && result.frame?.codec == .h264)
        #expect(track.statistics.framesRejected == 4 && sink.frames.count == 1)
    }

    /// libopenh264's rate control follows a new target at once (SetOption, not a new encoder).
    @Test func loweringTheH264BitrateShrinksFrames() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(codec: .h264, bitrate: 2_000_000))
        for index in 0..<90 {
            if index == 30 { try track.setBitrate(200_000) }
            if index == 60 { try track.setBitrate(3_000_000) }
            let picture = try I420Frame.testPattern(width: 640, height: 360, frameIndex: index)
            try track.push(picture, capturedAt: videoCaptureTime(index, framesPerSecond: 30, from: start))
        }
        let frames = sink.frames
        let encoded = track.statistics.framesEncoded
        // Only one keyframe: no bitrate change re-created the encoder or made an IDR.
        #expect(frames.filter(\.isKeyframe).count == 1)
        func average(_ range: Range<Int>) -> Int {
            let picked = frames.filter { range.contains(Int($0.rtpTimestamp / 3000)) }
            return picked.reduce(0) { $0 + $1.bytes.count } / max(1, picked.count)
        }
        let (high, low, raised) = (average(5..<30), average(40..<60), average(70..<90))
        print("VideoTrack H.264 test pattern 640x360: 2 Mbps -> 200 kbps -> 3 Mbps: \(high) -> \(low) -> \(raised) bytes per frame, \(encoded) of 90 encoded, keyframes at \(frames.filter(\.isKeyframe).map { $0.rtpTimestamp / 3000 })")
        #expect(low * 3 < high)
        #expect(raised > 2 * low)
    }

    /// The room's choice: VP8 until a room takes another codec of ours, then a new encoder of
    /// that codec from the next frame, starting with a keyframe.
    @Test func theRoomsChoiceEncodesVP8UntilARoomTakesH264() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(codec: nil))
        #expect(track.offeredCodecs == [.vp8, .h264] && track.codec == .vp8)
        let square = try MovingSquare(width: 320, height: 240)
        _ = try pushSquare(square, to: track, frames: 0..<5)
        try track.useNegotiated(.h264)
        #expect(throws: VideoTrackError.self) { try track.useNegotiated(.vp9) }
        let inputs = try pushSquare(square, to: track, frames: 5..<15)
        let frames = sink.frames
        #expect(frames.map(\.codec) == Array(repeating: .vp8, count: 5) + Array(repeating: .h264, count: 10))
        #expect(frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 5])
        let (worst, _) = try Self.decodeAll(Array(frames[5...]), codec: .h264, inputs: inputs)
        #expect(worst < 3)
        let statistics = track.statistics
        #expect(statistics.codecChanges == 1 && statistics.codec == .h264 && statistics.resolutionChanges == 0)
        // A track of a fixed codec offers that one only.
        #expect(try VideoTrack(configuration: .init(codec: .h264)).offeredCodecs == [.h264])
        #expect(throws: VideoTrackError.self) { try VideoTrack(configuration: .init(codec: .h264)).useNegotiated(.vp8) }
    }
}
