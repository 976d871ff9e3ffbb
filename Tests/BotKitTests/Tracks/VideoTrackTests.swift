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
}
