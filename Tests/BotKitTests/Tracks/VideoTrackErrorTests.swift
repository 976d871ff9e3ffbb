import Agent
import TestSupport
import Testing

@testable import BotKit

/// The ways a ``VideoTrack`` refuses settings and frames, and the runtime settings.
@Suite(.offThePool) struct VideoTrackErrorTests {
    let start = ContinuousClock.now

    @Test func badPlanesAndSizesAreTypedErrorsAndTheTrackGoesOn() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack()
        var shortLuma = try I420Frame(width: 640, height: 480)
        shortLuma.y.removeLast(100)
        #expect(throws: VideoTrackError.invalidFrame(.planeTooSmall(plane: "Y", needed: 640 * 480, got: 640 * 480 - 100))) {
            try track.push(shortLuma, capturedAt: start)
        }
        var emptyChroma = try I420Frame(width: 321, height: 241)
        emptyChroma.v = []
        #expect(throws: VideoTrackError.invalidFrame(.planeTooSmall(plane: "V", needed: 161 * 121, got: 0))) {
            try track.push(emptyChroma, capturedAt: start)
        }
        // I420Frame allows 16384; VP8's size fields stop at 16383.
        let tooWide = try I420Frame(width: 16_384, height: 2)
        #expect {
            try track.push(tooWide, capturedAt: start)
        } throws: { error in
            guard case VideoTrackError.unsupportedSize(.vp8, 16_384, 2, let reason) = error else { return false }
            return reason.contains("16383")
        }
        #expect(sink.frames.isEmpty)

        let result = try track.push(try MovingSquare(width: 64, height: 48).frame(at: 0), capturedAt: start)
        #expect(result.frame?.isKeyframe == true)
        #expect(result.frame?.rtpTimestamp == 0)
        let statistics = track.statistics
        #expect(statistics.framesPushed == 4 && statistics.framesRejected == 3 && statistics.framesSent == 1)
    }

    @Test func aClosedTrackRefusesPushes() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack()
        let square = try MovingSquare(width: 160, height: 120)
        try track.push(square.frame(at: 0), capturedAt: start)
        track.close()
        track.close()
        #expect(track.isClosed)
        #expect(throws: VideoTrackError.closed) {
            try track.push(square.frame(at: 1), capturedAt: start + .seconds(1))
        }
        #expect(throws: VideoTrackError.closed) { try track.setBitrate(500_000) }
        track.setSink { _ in Issue.record("a closed track has no sink") }
        #expect(throws: VideoTrackError.closed) {
            try track.push(square.frame(at: 2), capturedAt: start + .seconds(2))
        }
        #expect(sink.frames.count == 1)
        #expect(track.statistics.framesPushed == 1)
    }

    @Test(arguments: [
        VideoTrack.Configuration(bitrate: 0),
        VideoTrack.Configuration(bitrate: 200_000_000),
        VideoTrack.Configuration(framesPerSecond: 0),
        VideoTrack.Configuration(framesPerSecond: 1000),
        VideoTrack.Configuration(keyframeInterval: .zero),
        VideoTrack.Configuration(keyframeInterval: .seconds(-1)),
        VideoTrack.Configuration(speed: 0),
        VideoTrack.Configuration(speed: 17),
        VideoTrack.Configuration(threads: 0),
        VideoTrack.Configuration(codec: .opus),
    ])
    func outOfRangeSettingsAreRefused(_ configuration: VideoTrack.Configuration) throws {
        #expect {
            _ = try VideoTrack(configuration: configuration)
        } throws: { error in
            guard case VideoTrackError.invalidConfiguration(let reason) = error else { return false }
            return !reason.isEmpty
        }
    }

    @Test func defaultsAreTheDocumentedOnes() throws {
        let configuration = try VideoTrack().configuration
        #expect(configuration.bitrate == 1_000_000 && configuration.framesPerSecond == 30)
        #expect(configuration.keyframeInterval == .seconds(3))
        #expect(configuration.keyframeIntervalFrames == 90)
        #expect(configuration.codec == .vp8)
        guard case .vpx(let encoder) = try configuration.makeEncoder(.vp8) else {
            Issue.record("VP8 is libvpx's")
            return
        }
        #expect(encoder.configuration.timebase == 90_000 && encoder.configuration.errorResilient)
    }

    @Test func keyframesComeAtTheConfiguredInterval() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(keyframeInterval: .seconds(1)))
        let square = try MovingSquare(width: 160, height: 120)
        for index in 0..<100 {
            try track.push(square.frame(at: index), capturedAt: videoCaptureTime(index, framesPerSecond: 30, from: start))
        }
        let keyframes = sink.frames.enumerated().filter(\.element.isKeyframe).map(\.offset)
        print("VideoTrack keyframe interval 1 s at 30 fps: keyframes at \(keyframes)")
        #expect(keyframes.first == 0)
        #expect(keyframes.count >= 4)
        #expect(zip(keyframes, keyframes.dropFirst()).allSatisfy { $1 - $0 <= 30 })
    }

    /// A lower bitrate set at runtime makes frames of a hard picture smaller.
    @Test func loweringTheBitrateShrinksFrames() throws {
        let (track, sink) = try VideoTrackSinkRecorder.attachedTrack(.init(bitrate: 2_000_000))
        for index in 0..<90 {
            if index == 30 { try track.setBitrate(200_000) }
            let picture = try I420Frame.testPattern(width: 640, height: 360, frameIndex: index)
            try track.push(picture, capturedAt: videoCaptureTime(index, framesPerSecond: 30, from: start))
        }
        #expect(track.configuration.bitrate == 200_000)
        #expect(throws: VideoTrackError.self) { try track.setBitrate(5) }
        let frames = sink.frames
        // Even the hard picture is sharp at 2 Mbps.
        let decoder = try VPXDecoder(codec: .vp8)
        var worstPSNR = Double.infinity
        for (index, frame) in frames[0..<30].enumerated() {
            let picture = try #require(try decoder.decode(frame.bytes).first)
            let input = try I420Frame.testPattern(width: 640, height: 360, frameIndex: index)
            worstPSNR = min(worstPSNR, try #require(picture.lumaPSNR(against: input)))
        }
        #expect(worstPSNR > 30)
        let before = frames[1..<30].reduce(0) { $0 + $1.bytes.count } / 29
        let after = frames[60..<90].reduce(0) { $0 + $1.bytes.count } / 30
        print("VideoTrack test pattern 640x360: worst luma PSNR \(worstPSNR) dB at 2 Mbps; 2 Mbps -> 200 kbps: \(before) -> \(after) bytes per frame")
        // 2 Mbps at 30 fps is ~8300 bytes a frame, 200 kbps ~830.
        #expect(after * 3 < before)
        #expect(after < 1500)
    }
}
