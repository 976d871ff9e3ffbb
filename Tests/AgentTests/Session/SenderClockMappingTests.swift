import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession

@Suite struct SenderClockMappingTests {
    static let second: Int64 = 1_000_000_000
    /// 2026-01-01T00:00:00Z in Unix nanoseconds.
    static let base: Int64 = 1_767_225_600 * second

    @Test func arrivalMappingBeforeTheFirstSenderReport() {
        var mapping = SenderClockMapping(clockRate: 90_000)
        #expect(mapping.source == .none)
        #expect(mapping.wallNanoseconds(forRTP: 0) == nil)
        mapping.packetArrived(rtpTimestamp: 1_000, wallNanoseconds: Self.base)
        mapping.packetArrived(rtpTimestamp: 91_000, wallNanoseconds: Self.base + 5 * Self.second)  // ignored
        #expect(mapping.source == .arrival)
        #expect(mapping.wallNanoseconds(forRTP: 91_000) == Self.base + Self.second)
        #expect(mapping.wallNanoseconds(forRTP: 1_001) == Self.base + 11_111)  // 1/90000 s, truncated
        #expect(mapping.wallNanoseconds(forRTP: -89_000) == Self.base - Self.second)
    }

    @Test func senderReportTakesOverAndBothStayAvailable() {
        var mapping = SenderClockMapping(clockRate: 90_000)
        mapping.packetArrived(rtpTimestamp: 1_000, wallNanoseconds: Self.base + 80_000_000)  // 80 ms network delay
        // SR: RTP 46,000 (0.5 s after the first packet) is sender time base + 0.5 s.
        mapping.senderReportReceived(ntpTime: NTPTime.ntp(fromUnixNanoseconds: Self.base + Self.second / 2), rtpTimestamp: 46_000)
        #expect(mapping.source == .senderReport)
        #expect(mapping.wallNanoseconds(forRTP: 1_000) == Self.base)
        #expect(mapping.arrivalBasedWallNanoseconds(forRTP: 1_000) == Self.base + 80_000_000)
        #expect(mapping.senderBasedWallNanoseconds(forRTP: 91_000) == Self.base + Self.second)
        let date = mapping.date(forRTP: 91_000)
        #expect(date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == 1_767_225_601_000)
    }

    @Test func timestampsAcrossThe32BitWrapMapContinuously() {
        var unwrapper = SequenceUnwrapper<UInt32>()
        var mapping = SenderClockMapping(clockRate: 90_000)
        let first = unwrapper.unwrap(0xFFFE_A070)  // 2^32 − 90000: one second before the wrap
        mapping.packetArrived(rtpTimestamp: first, wallNanoseconds: Self.base)
        let afterWrap = unwrapper.unwrap(0x0000_0000)
        #expect(afterWrap == 1 << 32)
        #expect(mapping.wallNanoseconds(forRTP: afterWrap) == Self.base + Self.second)
        // An SR sent after the wrap, RTP 45000 = base + 1.5 s by the sender's clock.
        var probe = unwrapper
        mapping.senderReportReceived(ntpTime: NTPTime.ntp(fromUnixNanoseconds: Self.base + 3 * Self.second / 2), rtpTimestamp: probe.unwrap(45_000))
        #expect(mapping.wallNanoseconds(forRTP: first) == Self.base)
        #expect(mapping.wallNanoseconds(forRTP: unwrapper.unwrap(90_000)) == Self.base + 2 * Self.second)
    }

    @Test func absurdTimestampsSaturateInsteadOfTrapping() {
        var mapping = SenderClockMapping(clockRate: 90_000)
        mapping.packetArrived(rtpTimestamp: .min, wallNanoseconds: Self.base)
        #expect(mapping.wallNanoseconds(forRTP: .max) == .max)
        mapping.packetArrived(rtpTimestamp: 0, wallNanoseconds: Self.base)
        var other = SenderClockMapping(clockRate: 1)
        other.packetArrived(rtpTimestamp: 0, wallNanoseconds: 0)
        #expect(other.wallNanoseconds(forRTP: .max) == .max)
        #expect(other.wallNanoseconds(forRTP: .min) == .min)
    }
}
