import Foundation
import Testing

@testable import Agent
@testable import AgentCore

/// Bitrates and loss from counter differences over the snapshots' own times, and the text form.
@Suite struct StatisticsCollectorTests {
    let start = ContinuousClock.now
    let alice = User(id: "a1", display: "alice")

    func receive(packets: Int, bytes: Int, lost: Int) -> ReceiveStreamStatistics {
        var statistics = ReceiveStreamStatistics()
        statistics.packets = packets
        statistics.bytes = bytes
        statistics.cumulativeLost = lost
        statistics.jitterSeconds = 0.004
        statistics.nacks = 3
        statistics.plis = 1
        return statistics
    }

    @Test func inboundBitrateAndLossFromDeltas() {
        var collector = StatisticsCollector()
        let key = StatisticsCollector.Key(participantID: "a1", kind: .audio)
        let track = RemoteTrack(participantID: "a1", kind: .audio, codec: .opus)
        collector.trackStarted(key, at: start)
        // 4000 payload bytes in the first 500 ms: 64 kbit/s.
        collector.record(key, receive(packets: 25, bytes: 4000, lost: 0), at: start + .milliseconds(500))
        let first = collector.report(
            room: "r", users: [alice], tracks: { _, kind in kind == .audio ? track : nil }, published: [], now: start + .seconds(1),
            date: Date(), interval: .seconds(1))
        #expect(first.track(of: "a1", kind: .audio)?.bitrate == 64_000)
        // Then 2000 bytes in 1 s (16 kbit/s), 5 lost of 30 expected.
        collector.record(key, receive(packets: 50, bytes: 6000, lost: 5), at: start + .milliseconds(1500))
        let second = collector.report(
            room: "r", users: [alice], tracks: { _, kind in kind == .audio ? track : nil }, published: [], now: start + .seconds(2),
            date: Date(), interval: .seconds(1))
        let audio = second.track(of: "a1", kind: .audio)
        #expect(audio?.bitrate == 16_000)
        #expect(audio?.fractionLost == 5.0 / 30.0)
        #expect(audio?.lost == 5 && audio?.packets == 50 && audio?.nacks == 3 && audio?.plis == 1)
        #expect(audio?.jitter == .milliseconds(4))
        #expect(audio?.framesDecoded == nil && audio?.audioLevel == nil)
        // No fresh snapshot: the last figures stand.
        let third = collector.report(
            room: "r", users: [alice], tracks: { _, kind in kind == .audio ? track : nil }, published: [], now: start + .seconds(3),
            date: Date(), interval: .seconds(1))
        #expect(third.track(of: "a1", kind: .audio)?.bitrate == 16_000)
    }

    @Test func outboundCarriesRoundTripAndReportedLoss() {
        var collector = StatisticsCollector()
        let track = TrackOffer(mid: "0", kind: .video, codec: .vp8, payloadType: 96, ssrc: 1)
        var sent = SendStreamStatistics()
        _ = collector.report(room: "r", users: [], tracks: { _, _ in nil }, published: [(track, sent)], now: start, date: Date(), interval: .seconds(1))
        sent.payloadBytes = 125_000
        sent.packets = 120
        sent.receptionReports = 1
        sent.reportedFractionLost = 0.02
        sent.reportedCumulativeLost = 3
        sent.reportedJitter = 900  // 10 ms at 90 kHz
        sent.roundTripTime = .milliseconds(12)
        sent.nacksReceived = 2
        let report = collector.report(
            room: "r", users: [], tracks: { _, _ in nil }, published: [(track, sent)], now: start + .milliseconds(500), date: Date(),
            interval: .seconds(1))
        let video = try! #require(report.published.first)
        #expect(video.bitrate == 2_000_000)
        #expect(video.roundTripTime == .milliseconds(12) && video.jitter == .milliseconds(10))
        #expect(video.fractionLost == 0.02 && video.lost == 3 && video.nacks == 2)
        #expect(report.outboundBitrate == 2_000_000 && report.inboundBitrate == 0)
    }

    @Test func statsStringShowsEveryParticipantAndOurTracks() {
        let report = ChannelStatistics(
            room: "demo", measuredAt: Date(), interval: .seconds(1),
            participants: [.init(user: alice, tracks: [
                TrackStatistics(direction: .inbound, kind: .audio, codec: .opus, bitrate: 32_000, packets: 250, jitter: .milliseconds(2)),
                TrackStatistics(direction: .inbound, kind: .video, codec: .vp8, bitrate: 1_232_000, packets: 900, lost: 9, fractionLost: 0.01),
            ])],
            published: [TrackStatistics(direction: .outbound, kind: .audio, codec: .opus, bitrate: 40_000, roundTripTime: .milliseconds(12))])
        let lines = report.statsString.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "room demo: 1 user, in 1264 kbps, out 40 kbps")
        #expect(lines[1] == "  alice(a1) audio opus 32 kbps 250 pkts lost 0 (0.0%) jitter 2 ms nack 0 pli 0 | video VP8 1232 kbps 900 pkts lost 9 (1.0%) nack 0 pli 0")
        #expect(lines[2] == "  published audio opus 40 kbps 0 pkts lost 0 (0.0%) nack 0 pli 0 rtt 12 ms")
        #expect(report.description == report.statsString)
    }
}
