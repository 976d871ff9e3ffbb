import Testing

@testable import Agent
@testable import AgentCore

/// The backoff schedule: nominal delays, jitter bounds, and the attempt and time limits.
@Suite struct ReconnectPolicyTests {
    typealias SeededRandom = AgentCore.SeededRandom

    static func seconds(_ duration: Duration) -> Double { Double(duration.totalNanoseconds) / 1e9 }

    @Test func nominalDelaysDoubleFromHalfASecondToEight() {
        let policy = ReconnectPolicy.standard
        let delays = (1...8).map { Self.seconds(policy.nominalDelay(beforeAttempt: $0)) }
        #expect(delays == [0.5, 1, 2, 4, 8, 8, 8, 8])
        // Far-out attempts stay at the ceiling instead of overflowing.
        #expect(Self.seconds(policy.nominalDelay(beforeAttempt: 10_000)) == 8)
    }

    @Test func jitterStaysWithinItsBoundsAndSpreads() throws {
        let policy = ReconnectPolicy.standard  // ±20 %
        var random = SeededRandom(state: 42)
        for attempt in 1...6 {
            let nominal = Self.seconds(policy.nominalDelay(beforeAttempt: attempt))
            var seen: [Double] = []
            for _ in 0..<500 {
                let delay = try #require(policy.delay(beforeAttempt: attempt, elapsed: .zero, using: &random))
                seen.append(Self.seconds(delay))
            }
            let low = seen.min() ?? 0, high = seen.max() ?? 0
            #expect(low >= nominal * 0.8 - 1e-9 && high <= nominal * 1.2 + 1e-9, "attempt \(attempt): \(low)...\(high)")
            // Really jittered: 500 draws cover most of the ±20 % band.
            #expect(high - low > nominal * 0.3, "attempt \(attempt): spread \(high - low)")
        }
        var noJitter = policy
        noJitter.jitter = 0
        #expect(noJitter.delay(beforeAttempt: 3, elapsed: .zero, using: &random) == .seconds(2))
    }

    @Test func givesUpAfterTheAttemptLimit() {
        var policy = ReconnectPolicy(maximumAttempts: 3, maximumDuration: nil)
        policy.jitter = 0
        var random = SeededRandom(state: 1)
        let schedule = (1...5).map { policy.delay(beforeAttempt: $0, elapsed: .seconds(1000), using: &random) }
        #expect(schedule == [.milliseconds(500), .seconds(1), .seconds(2), nil, nil])
        #expect(ReconnectPolicy.never.delay(beforeAttempt: 1, elapsed: .zero, using: &random) == nil)
    }

    @Test func givesUpAtTheTimeLimitAndCutsTheLastDelay() {
        let policy = ReconnectPolicy(jitter: 0, maximumDuration: .seconds(120))
        var random = SeededRandom(state: 7)
        // 117 s in, the next nominal 8 s delay is cut to the 3 s left.
        #expect(policy.delay(beforeAttempt: 20, elapsed: .seconds(117), using: &random) == .seconds(3))
        #expect(policy.delay(beforeAttempt: 21, elapsed: .seconds(120), using: &random) == nil)
        #expect(policy.delay(beforeAttempt: 2, elapsed: .seconds(121), using: &random) == nil)

        // Simulated: attempts that each fail after 1 s, with full jitter, end within the limit.
        let jittered = ReconnectPolicy.standard
        var elapsed = Duration.zero
        var attempts = 0
        while let delay = jittered.delay(beforeAttempt: attempts + 1, elapsed: elapsed, using: &random) {
            elapsed += delay
            attempts += 1
            #expect(elapsed <= .seconds(120))
            elapsed += .seconds(1)
        }
        // 0.5+1+2+4 s, then 8 s steps (+1 s per failing attempt) up to 120 s: about 15 attempts.
        #expect((13...17).contains(attempts), "\(attempts) attempts")
    }
}
