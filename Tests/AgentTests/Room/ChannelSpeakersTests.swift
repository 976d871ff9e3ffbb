import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Agent
@testable import AgentCore
@testable import AgentMedia

/// ``ChannelOptions/detectsActiveSpeakers`` on the channel's event path: real Opus in, decoded,
/// through the VAD, out as ``ChannelEvent/activeSpeakersChanged(_:)`` and speaking time in the
/// statistics. The tracker's clock is driven by hand, one 20 ms packet at a time.
@Suite(.offThePool) struct ChannelSpeakersTests {
    final class ManualClock: Sendable {
        let ms = Atomic<Int64>(0)
    }

    /// 20 ms Opus packets of a tone (or silence) at 48 kHz.
    static func packets(tone: Bool, count: Int, encoder: OpusEncoder, phase: inout Int) throws -> [[UInt8]] {
        try (0..<count).map { _ in
            let pcm = (0..<960).map { index -> Int16 in
                tone ? Int16(6000 * sin(2 * Double.pi * 300 * Double(phase + index) / 48_000)) : 0
            }
            phase += 960
            return try encoder.encode(pcm)
        }
    }

    @Test func aTalkerIsReportedThenTheOtherAndSpeakingTimeCounts() async throws {
        let clock = ManualClock()
        let buffer = EventBuffer<ChannelEvent>()
        let speakers = ChannelSpeakers(clock: { clock.ms.load(ordering: .relaxed) })
        let core = ChannelCore(room: "r", statsInterval: .seconds(1), rawSink: nil, events: buffer, lanes: nil, speakers: speakers)
        let at = Date()
        core.transition(to: .connecting)
        core.transition(to: .connected)
        for id in ["a", "b"] {
            core.receive(.participantJoined(id: id, display: id.uppercased(), at: at))
            core.receive(.trackAdded(participantID: id, kind: .audio, codec: .opus))
        }
        let encoders = try ["a": OpusEncoder(), "b": OpusEncoder()]
        var phases = ["a": 0, "b": 0]
        var timestamps: [String: Int64] = ["a": 0, "b": 0]
        var iterator = buffer.stream.makeAsyncIterator()
        /// The newest speaker list pending (a slow consumer gets the newest), skipping the roster.
        func nextSpeakers() async -> [String]? {
            while let event = await iterator.next() {
                if case .activeSpeakersChanged(let users) = event { return users.map(\.id) }
            }
            return nil
        }
        var lists: [[String]?] = []
        // A talks for 1 s, then B for 1 s while A sends silence, then both are silent; the
        // consumer looks at the end of each second.
        for step in 0..<150 {
            let ms = Int64(step) * 20
            for id in ["a", "b"] {
                let talking = id == "a" ? ms < 1000 : (ms >= 1000 && ms < 2000)
                var phase = phases[id] ?? 0
                let packet = try Self.packets(tone: talking, count: 1, encoder: try #require(encoders[id]), phase: &phase)[0]
                phases[id] = phase
                let rtp = timestamps[id] ?? 0
                timestamps[id] = rtp + 960
                core.receive(.frame(RemoteFrame(participantID: id, kind: .audio, codec: .opus, bytes: packet, isKeyframe: true,
                                                rtpTimestamp: rtp, clockRate: 48_000, wallTimeNanoseconds: ms * 1_000_000,
                                                mappedBySenderReport: false)))
            }
            clock.ms.store(ms + 20, ordering: .relaxed)
            core.evaluateSpeakers()
            if step == 49 || step == 99 || step == 149 { lists.append(await nextSpeakers()) }
        }
        #expect(lists.count == 3)
        #expect(lists.first == ["a"], "\(lists)")
        #expect(lists.dropFirst().first == ["b"], "A's silence puts her out 300 ms after she stopped: \(lists)")
        #expect(lists.last == [], "\(lists)")
        core.reportStatistics()
        var report: ChannelStatistics?
        while let event = await iterator.next() {
            if case .statsReport(let statistics) = event {
                report = statistics
                break
            }
        }
        let speaking = try #require(report).participants.map { ($0.user.id, $0.tracks.first { $0.kind == .audio }?.speakingTime) }
        for (id, time) in speaking {
            let ms = try #require(time).totalMilliseconds
            #expect(ms >= 900 && ms <= 1400, "\(id) spoke \(ms) ms")
        }
    }
}
