import Testing

@testable import Agent
@testable import AgentCore

@Suite struct NTPTimeTests {
    @Test func unixEpochIsNTPSecond2208988800() {
        #expect(NTPTime.ntp(fromUnixNanoseconds: 0) == 0x83AA_7E80_0000_0000)
        #expect(NTPTime.unixNanoseconds(fromNTP: 0x83AA_7E80_0000_0000) == 0)
    }

    @Test func knownDateWithHalfSecond() {
        // 2026-01-01T00:00:00.5Z: NTP seconds 0xED003780, fraction 0x80000000.
        let unix: Int64 = 1_767_225_600_500_000_000
        #expect(NTPTime.ntp(fromUnixNanoseconds: unix) == 0xED00_3780_8000_0000)
        #expect(NTPTime.unixNanoseconds(fromNTP: 0xED00_3780_8000_0000) == unix)
        #expect(NTPTime.compact(0xED00_3780_8000_0000) == 0x3780_8000)
    }

    @Test func fractionsRoundToTheNearestNanosecond() {
        // 1 ns is 4.29 fraction units: it must survive a round trip.
        let unix: Int64 = 1_767_225_600_000_000_001
        #expect(NTPTime.ntp(fromUnixNanoseconds: unix) & 0xFFFF_FFFF == 4)
        #expect(NTPTime.unixNanoseconds(fromNTP: NTPTime.ntp(fromUnixNanoseconds: unix)) == unix)
        let almostNextSecond: Int64 = 1_767_225_600_999_999_999
        #expect(NTPTime.unixNanoseconds(fromNTP: NTPTime.ntp(fromUnixNanoseconds: almostNextSecond)) == almostNextSecond)
    }

    @Test func era1AfterFebruary2036() {
        // NTP seconds wrap on 2036-02-07T06:28:16Z; seconds 1 of era 1 is one second later.
        #expect(NTPTime.unixNanoseconds(fromNTP: 0x0000_0001_0000_0000) == 2_085_978_497_000_000_000)
        #expect(NTPTime.ntp(fromUnixNanoseconds: 2_085_978_497_000_000_000) == 0x0000_0001_0000_0000)
    }
}
