import Testing

@testable import BotKit

@Suite struct VideoCaptureTimelineTests {
    let start = ContinuousClock.now

    @Test func timesFollowCaptureTimeAt90Kilohertz() throws {
        var timeline = VideoCaptureTimeline(clockRate: 90_000)
        let offsets: [Duration] = [.zero, .nanoseconds(33_333_333), .milliseconds(100), .seconds(1),
                                   .seconds(3600), .seconds(86_400 * 30)]
        let times = try offsets.map { try timeline.rtpTimestamp(at: start + $0) }
        #expect(times == [0, 3000, 9000, 90_000, 324_000_000, 233_280_000_000])
    }

    @Test func roundsToTheNearestTick() throws {
        var timeline = VideoCaptureTimeline(clockRate: 90_000)
        _ = try timeline.rtpTimestamp(at: start)
        // One tick is 11111.1 ns: 5555 ns rounds down, 5556 ns up.
        #expect(try timeline.rtpTimestamp(at: start + .nanoseconds(16_666)) == 1)
        #expect(try timeline.rtpTimestamp(at: start + .nanoseconds(27_778)) == 3)
    }

    @Test func timesStrictlyIncreaseEvenWhenCaptureTimeStalls() throws {
        var timeline = VideoCaptureTimeline(clockRate: 90_000)
        let times = try [0, 10, 10, 5, 20].map { try timeline.rtpTimestamp(at: start + .microseconds($0)) }
        #expect(times == [0, 1, 2, 3, 4])
    }

    @Test func absurdCaptureTimesAreATypedError() throws {
        var timeline = VideoCaptureTimeline(clockRate: 90_000)
        _ = try timeline.rtpTimestamp(at: start)
        let far = Duration.seconds(Int64.max / 2)
        #expect(throws: VideoTrackError.captureTimeOutOfRange(far)) {
            _ = try timeline.rtpTimestamp(at: start + far)
        }
        #expect(try timeline.rtpTimestamp(at: start + .seconds(1)) == 90_000)
    }
}
