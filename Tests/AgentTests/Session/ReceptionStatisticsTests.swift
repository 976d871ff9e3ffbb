import Testing

@testable import Agent
@testable import AgentSession
@testable import AgentWire

@Suite struct ReceptionStatisticsTests {
    @Test func jitterMatchesAHandComputation() {
        // 90 kHz, one packet per 20 ms (1800 units); arrivals at 0, 20, 45, 60 ms.
        // transit (arrival·90 − ts): 0, 0, 450, 0 → |D| = 0, 450, 450.
        // J = 0 + (0 − 0)/16 = 0; J = 0 + (450 − 0)/16 = 28.125; J = 28.125 + (450 − 28.125)/16 = 54.4921875.
        var stats = ReceptionStatistics(clockRate: 90_000)
        let arrivals: [Int64] = [0, 20, 45, 60]
        for (index, arrival) in arrivals.enumerated() {
            stats.packetReceived(sequence: Int64(index), rtpTimestamp: 7_000 + 1800 * Int64(index), arrival: .ms(arrival))
        }
        #expect(stats.jitter == 54.4921875)
        #expect(abs(stats.jitterSeconds - 54.4921875 / 90_000) < 1e-12)
        #expect(stats.makeReport(ssrc: 9, now: .ms(100)).jitter == 54)
    }

    @Test func fractionLostPerIntervalAndCumulativeLoss() {
        var stats = ReceptionStatistics(clockRate: 48_000)
        for sequence in 0..<10 where sequence != 3 && sequence != 7 {
            stats.packetReceived(sequence: Int64(65_530 + sequence), rtpTimestamp: 0, arrival: .ms(0))
        }
        let first = stats.makeReport(ssrc: 0xAABB_CCDD, now: .ms(1000))
        #expect(first.ssrc == 0xAABB_CCDD)
        #expect(first.fractionLost == 51)  // 2 of 10: (2 << 8) / 10
        #expect(first.cumulativeLost == 2)
        #expect(first.extendedHighestSequence == 0x0001_0003)  // one cycle, sequence 3
        for sequence in 10..<20 {
            stats.packetReceived(sequence: Int64(65_530 + sequence), rtpTimestamp: 0, arrival: .ms(0))
        }
        let second = stats.makeReport(ssrc: 0xAABB_CCDD, now: .ms(2000))
        #expect(second.fractionLost == 0)
        #expect(second.cumulativeLost == 2)
        // A duplicate outweighs the interval: fraction stays 0, cumulative drops by one.
        for sequence in [20, 20, 21] {
            stats.packetReceived(sequence: Int64(65_530 + sequence), rtpTimestamp: 0, arrival: .ms(0))
        }
        let third = stats.makeReport(ssrc: 0xAABB_CCDD, now: .ms(3000))
        #expect(third.fractionLost == 0)
        #expect(third.cumulativeLost == 1)
        #expect(stats.expected == 22)
        #expect(stats.received == 21)
    }

    @Test func lastSenderReportIsEchoedWithItsDelay() {
        var stats = ReceptionStatistics(clockRate: 90_000)
        stats.packetReceived(sequence: 1, rtpTimestamp: 0, arrival: .ms(0))
        #expect(stats.makeReport(ssrc: 1, now: .ms(10)).lastSenderReport == 0)
        stats.senderReportReceived(ntpTime: 0xED00_3780_8000_0000, at: .ms(100))
        let report = stats.makeReport(ssrc: 1, now: .ms(1600))
        #expect(report.lastSenderReport == 0x3780_8000)
        #expect(report.delaySinceLastSenderReport == 98_304)  // 1.5 s × 65536
    }

    @Test func reportSurvivesTheWireFormat() throws {
        var stats = ReceptionStatistics(clockRate: 90_000)
        stats.packetReceived(sequence: 0, rtpTimestamp: 0, arrival: .ms(0))
        stats.packetReceived(sequence: 4, rtpTimestamp: 0, arrival: .ms(10))
        let report = stats.makeReport(ssrc: 5, now: .ms(20))
        var bytes: [UInt8] = []
        ReceiverReport(ssrc: 1, reports: [report]).write(into: &bytes)
        #expect(try RTCPPacket.parseCompound(bytes) == [.receiverReport(ReceiverReport(ssrc: 1, reports: [report]))])
        #expect(report.fractionLost == 153)  // 3 of 5
        #expect(report.jitter == 56)  // same timestamp 10 ms apart: |D| = 900 units, J = 900/16 = 56.25
    }
}
