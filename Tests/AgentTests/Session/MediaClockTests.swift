import Testing

@testable import Agent
@testable import AgentCore

@Suite struct MediaClockTests {
    @Test func manualClockMovesOnlyWhenAdvanced() {
        let clock = ManualMediaClock(monotonicNanoseconds: 7, wallNanoseconds: 1_000)
        #expect(clock.now().monotonicNanoseconds == 7)
        #expect(clock.now().monotonicNanoseconds == 7)
        let later = clock.advance(by: .milliseconds(20))
        #expect(later.monotonicNanoseconds == 20_000_007)
        #expect(later.wallNanoseconds == 20_001_000)
        clock.setWall(5)
        #expect(clock.now().wallNanoseconds == 5)
        #expect(clock.now().monotonicNanoseconds == 20_000_007)
    }

    @Test func instantArithmeticAndOrderUseMonotonicTime() {
        let start = MediaInstant(monotonicNanoseconds: 100, wallNanoseconds: 9_000)
        let later = start + .microseconds(3)
        #expect(later - start == .nanoseconds(3_000))
        #expect(start < later)
        #expect(MediaInstant(monotonicNanoseconds: 100, wallNanoseconds: 1) == start)
        #expect(Duration.seconds(-2).totalNanoseconds == -2_000_000_000)
        #expect(Duration.seconds(Int64.max).totalNanoseconds == .max)
    }

    @Test func systemClockIsMonotonicAndWallIsRecent() {
        let clock = SystemMediaClock()
        let first = clock.now()
        let second = clock.now()
        #expect(second >= first)
        // After 2024-01-01 and before 2100-01-01.
        #expect(first.wallNanoseconds > 1_704_067_200_000_000_000)
        #expect(first.wallNanoseconds < 4_102_444_800_000_000_000)
    }
}
