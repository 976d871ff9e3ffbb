import Testing

@testable import AgentCore
@testable import AgentSession

/// The impairments a replay applies: at their rates, repeatable from the seed, sender reports spared.
@Suite struct ReplayScheduleTests {
    static let count = 20_000
    static let offsets = (0..<count).map { UInt32($0 * 2) }

    @Test("no impairment: every record once, in capture order, at its offset")
    func clean() {
        let schedule = ReplaySchedule(offsetsMilliseconds: Self.offsets, isRTCP: [], impairments: ReplayImpairments())
        #expect(schedule.deliveries.map(\.record) == Array(0..<Self.count))
        #expect(schedule.deliveries.map(\.atNanoseconds) == Self.offsets.map { Int64($0) * 1_000_000 })
        #expect(schedule.counters == .init())
    }

    @Test("5 % loss, 2 % reorder, 1 % duplicates and 50 ms jitter happen at their rates, and again for the same seed")
    func ratesAndSeed() {
        let impairments = ReplayImpairments(loss: 0.05, reorder: 0.02, duplicate: 0.01, jitter: .milliseconds(50), seed: 9)
        let schedule = ReplaySchedule(offsetsMilliseconds: Self.offsets, isRTCP: [], impairments: impairments)
        let rate = { (count: Int) in Double(count) / Double(Self.count) }
        #expect(abs(rate(schedule.counters.lost) - 0.05) < 0.006)
        #expect(abs(rate(schedule.counters.reordered) - 0.02 * 0.95) < 0.004)
        #expect(abs(rate(schedule.counters.duplicated) - 0.01 * 0.95) < 0.003)
        #expect(schedule.deliveries.count == Self.count - schedule.counters.lost + schedule.counters.duplicated)
        // In delivery order; each delivery at most jitter + hold-back + a duplicate's 5 ms late.
        #expect(zip(schedule.deliveries, schedule.deliveries.dropFirst()).allSatisfy { $0.atNanoseconds <= $1.atNanoseconds })
        #expect(schedule.deliveries.allSatisfy {
            let late = $0.atNanoseconds - Int64(Self.offsets[$0.record]) * 1_000_000
            return late >= 0 && late <= 95_000_000
        })
        // Jitter larger than the spacing reorders: some record comes before an earlier one.
        #expect(zip(schedule.deliveries, schedule.deliveries.dropFirst()).contains { $0.record > $1.record })
        #expect(ReplaySchedule(offsetsMilliseconds: Self.offsets, isRTCP: [], impairments: impairments) == schedule)
        var other = impairments
        other.seed = 10
        #expect(ReplaySchedule(offsetsMilliseconds: Self.offsets, isRTCP: [], impairments: other) != schedule)
    }

    @Test("sender reports are never lost, reordered or duplicated")
    func reportsAreSpared() {
        let isRTCP = (0..<Self.count).map { $0 % 10 == 0 }
        let schedule = ReplaySchedule(offsetsMilliseconds: Self.offsets, isRTCP: isRTCP,
                                      impairments: ReplayImpairments(loss: 0.5, reorder: 0.5, duplicate: 0.5, seed: 3))
        let reports = schedule.deliveries.filter { isRTCP[$0.record] }.map(\.record)
        #expect(reports == Array(stride(from: 0, to: Self.count, by: 10)))
        #expect(schedule.counters.lost > 0)
    }

    @Test("impairments out of range are named")
    func problems() {
        #expect(ReplayImpairments().problem == nil)
        #expect(ReplayImpairments(loss: 0.6).problem?.contains("loss") == true)
        #expect(ReplayImpairments(duplicate: -0.1).problem?.contains("duplicate") == true)
        #expect(ReplayImpairments(jitter: .seconds(11)).problem?.contains("jitter") == true)
        #expect(ReplayImpairments(videoDrift: 0.2).problem?.contains("drift") == true)
    }
}
