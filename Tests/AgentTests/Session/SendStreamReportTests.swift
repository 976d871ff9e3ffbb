import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

/// What a sender learns from the receiver's report blocks (RFC 3550 §6.4.1): loss, jitter, and
/// the round-trip time from LSR and DLSR.
@Suite struct SendStreamReportTests {
    static let ssrc: UInt32 = 0xA0D1_0001

    static func stream() throws -> SendStream {
        try SendStream(configuration: .init(codec: .opus, ssrc: ssrc, payloadType: 111, cname: "agentd-test"))
    }

    @Test func aReceiverReportAboutUsGivesLossJitterAndRoundTripTime() throws {
        let clock = ManualMediaClock()
        var stream = try Self.stream()
        _ = stream.packetize([0xFC, 1, 2], rtpTimestamp: 0, isKeyframe: true, capturedAt: clock.now())
        let sent = clock.now()
        let due = stream.tick(now: sent)
        let report = try #require(due)
        guard case .senderReport(let ours) = try RTCPPacket.parseCompound(report).first else {
            Issue.record("expected an SR")
            return
        }
        // The receiver held our SR 100 ms, and its report arrives 130 ms after we sent the SR:
        // the path took 30 ms both ways together.
        let block = ReceptionReport(
            ssrc: Self.ssrc, fractionLost: 64, cumulativeLost: 12, extendedHighestSequence: 500, jitter: 480,
            lastSenderReport: NTPTime.compact(ours.ntpTime), delaySinceLastSenderReport: 6_554)
        let response = stream.handleRTCP([.receiverReport(ReceiverReport(ssrc: 0x5B5C, reports: [block]))], now: clock.advance(by: .milliseconds(130)))
        #expect(response.reportedFractionLost == 0.25)
        let statistics = stream.statistics
        #expect(statistics.receptionReports == 1)
        #expect(statistics.reportedCumulativeLost == 12 && statistics.reportedJitter == 480)
        let rtt = try #require(statistics.roundTripTime)
        #expect(rtt > .milliseconds(29) && rtt < .milliseconds(31), "\(rtt)")
    }

    @Test func blocksAboutOtherSourcesOrWithoutAnSRAreNotTakenForRoundTrips() throws {
        let clock = ManualMediaClock()
        var stream = try Self.stream()
        let other = ReceptionReport(ssrc: 0x1234, fractionLost: 200)
        var response = stream.handleRTCP([.receiverReport(ReceiverReport(ssrc: 1, reports: [other]))], now: clock.now())
        #expect(response.reportedFractionLost == nil && stream.statistics.receptionReports == 0)
        // No SR seen yet (LSR 0): loss counts, RTT stays unknown.
        let early = ReceptionReport(ssrc: Self.ssrc, fractionLost: 0)
        response = stream.handleRTCP([.receiverReport(ReceiverReport(ssrc: 1, reports: [early]))], now: clock.now())
        #expect(response.reportedFractionLost == 0)
        #expect(stream.statistics.roundTripTime == nil)
    }
}
