import Testing

@testable import BotKit

@Suite struct VideoFrameRateLimiterTests {
    let start = ContinuousClock.now

    /// How many of `offsets` (milliseconds after start) a 30 fps limiter admits.
    private func admitted(_ offsets: [Double], framesPerSecond: Int = 30) -> [Bool] {
        var limiter = VideoFrameRateLimiter(framesPerSecond: framesPerSecond)
        return offsets.map { limiter.admit(start + .milliseconds($0)) }
    }

    @Test func aSourceAtTheLimitLosesNothingEvenWithJitter() {
        // 30 fps with up to ±6 ms of deterministic jitter.
        let jitter: [Double] = [0, 5, -6, 3, -2, 6, -5, 1, 4, -3]
        let offsets = (0..<300).map { Double($0) * 1000 / 30 + jitter[$0 % jitter.count] }
        #expect(admitted(offsets).allSatisfy { $0 })
    }

    @Test func aSourceAtTwiceTheLimitLosesEveryOtherFrame() {
        let result = admitted((0..<120).map { Double($0) * 1000 / 60 })
        #expect(result == (0..<120).map { $0 % 2 == 0 })
    }

    @Test func aSlowerSourceLosesNothing() {
        #expect(admitted((0..<60).map { Double($0) * 1000 / 20 }).allSatisfy { $0 })
        #expect(admitted((0..<60).map { Double($0) * 1000 / 29 }).allSatisfy { $0 })
    }

    @Test func aPauseIsNotSpentOnALaterBurst() {
        // One frame, a 2 s pause, then 20 frames 1 ms apart: only the burst's first gets in.
        let result = admitted([0] + (0..<20).map { 2000 + Double($0) })
        #expect(result.filter { $0 }.count == 2)
        #expect(result[0] && result[1])
    }

    @Test func captureTimesThatGoBackwardsAreDropped() {
        #expect(admitted([0, 100, 50, 100, 133.4]) == [true, true, false, false, true])
    }

    /// Over a long run of a fast irregular source, the admitted rate never exceeds the limit.
    @Test func theAdmittedRateStaysAtOrBelowTheLimit() {
        var offsets: [Double] = []
        var time = 0.0
        for index in 0..<3000 {
            time += [3, 11, 17, 25, 9][index % 5]  // averages 13 ms: ~77 fps
            offsets.append(time)
        }
        let count = admitted(offsets).filter { $0 }.count
        let seconds = (offsets.last ?? 0) / 1000
        #expect(Double(count) <= seconds * 30 + 1)
        #expect(Double(count) >= seconds * 30 * 0.9)
    }
}
