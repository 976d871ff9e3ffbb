import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Agent
@testable import AgentCore
@testable import AgentTransport

/// The channel's event path without sockets: what arrives while connecting waits for
/// `connected`, frames reach the raw sink and the subscribed track, an unsubscribed track's sinks end, and the
/// stream ends with the final `disconnected`.
@Suite struct ChannelCoreTests {
    final class RawEvents: Sendable {
        let count = Atomic<Int>(0)
    }

    static func frame(_ id: String) -> RemoteFrame {
        RemoteFrame(
            participantID: id, kind: .audio, codec: .opus, bytes: [0xF8, 0xFF, 0xFE], isKeyframe: true, rtpTimestamp: 0, clockRate: 48_000,
            wallTimeNanoseconds: 0, mappedBySenderReport: false)
    }

    @Test func heldUntilConnectedThenInOrderAndEndedByDisconnect() async throws {
        let buffer = EventBuffer<ChannelEvent>()
        let events = buffer.stream
        let raw = RawEvents()
        let core = ChannelCore(room: "r", statsInterval: .seconds(1), rawSink: { _ in raw.count.add(1, ordering: .relaxed) }, events: buffer)
        let at = Date()
        core.transition(to: .connecting)
        core.receive(.participantJoined(id: "a", display: "A", at: at))  // during the join
        core.receive(.trackAdded(participantID: "a", kind: .audio, codec: .opus))
        core.transition(to: .connected)
        core.receive(.frame(Self.frame("a")))
        var iterator = events.makeAsyncIterator()
        var received: [ChannelEvent] = []
        for _ in 0..<4 { received += [await iterator.next()].compactMap { $0 } }
        #expect(ChannelEventMapperTests.names(received) == ["state connecting", "state connected", "joined a", "subscribed a audio"])
        #expect(raw.count.load(ordering: .relaxed) == 3, "the raw sink saw the roster, the track and the frame")

        guard case .trackSubscribed(_, let track) = received[3] else { return }
        #expect(track.counters.framesForwarded == 1, "the core handed the frame to the track")
        core.receive(.trackRemoved(participantID: "a", kind: .audio))
        core.receive(.frame(Self.frame("a")))
        track.deliver(Self.frame("a"))
        #expect(track.counters.framesForwarded == 1, "a finished track forwards nothing")

        core.receive(.connectionState(.disconnected(reason: .roomDestroyed), at: at))
        core.receive(.participantJoined(id: "b", display: "B", at: at))
        var rest: [ChannelEvent] = []
        while let event = await iterator.next() { rest.append(event) }
        #expect(ChannelEventMapperTests.names(rest) == ["unsubscribed a audio", "left a", "state disconnected(reason: AgentCore.DisconnectReason.roomDestroyed)"])
        #expect(core.isFinished)
    }

    /// The channel's own path: 10,000 statistics reports, with a join every tenth and that user's
    /// leave five later, before the consumer reads. Every join and leave arrives in order, one
    /// report (the newest, counting the others) is left, and the channel's counts say how many
    /// were coalesced.
    @Test func aBurstOfReportsBehindASlowConsumerLosesNoJoin() async {
        let buffer = EventBuffer<ChannelEvent>()
        let core = ChannelCore(room: "r", statsInterval: .seconds(1), rawSink: nil, events: buffer)
        core.transition(to: .connecting)
        core.transition(to: .connected)
        for index in 0..<10_000 {
            if index % 10 == 0 { core.receive(.participantJoined(id: "u\(index)", display: "U", at: Date())) }
            core.reportStatistics()
            if index % 10 == 5 { core.receive(.participantLeft(id: "u\(index - 5)", at: Date())) }
        }
        core.finish()
        var roster: [String] = []
        var reports: [ChannelStatistics] = []
        for await event in buffer.stream {
            switch event {
            case .userJoined(let user): roster.append("+\(user.id)")
            case .userLeft(let user): roster.append("-\(user.id)")
            case .statsReport(let report): reports.append(report)
            default: break
            }
        }
        #expect(roster == stride(from: 0, to: 10_000, by: 10).flatMap { ["+u\($0)", "-u\($0)"] })
        #expect(reports.count == 1)
        #expect(reports.first?.participants.isEmpty == true, "no user had a track")
        #expect(reports.first?.events == EventBufferCounts(coalesced: 9_998, dropped: 0), "the counts when the last report was made")
        #expect(core.eventCounts == EventBufferCounts(coalesced: 9_999, dropped: 0))
    }

    @Test func aFrameAfterALossStopsVideoUntilAKeyframeAndAsksTheSenderForOne() async throws {
        let buffer = EventBuffer<ChannelEvent>()
        let events = buffer.stream
        let core = ChannelCore(room: "r", statsInterval: .seconds(1), rawSink: nil, events: buffer)
        let requests = Mutex<[String]>([])
        core.setKeyframeRequester { id, kind in requests.withLock { $0.append("\(id) \(kind)") } }
        core.transition(to: .connecting)
        core.transition(to: .connected)
        core.receive(.participantJoined(id: "v", display: "V", at: Date()))
        core.receive(.trackAdded(participantID: "v", kind: .video, codec: .vp8))
        var iterator = events.makeAsyncIterator()
        var track: RemoteTrack?
        while track == nil, let event = await iterator.next() {
            if case .trackSubscribed(_, let subscribed) = event { track = subscribed }
        }
        let subscribed = try #require(track)
        let sink = RemoteTrackEncodedSink(delivery: .handler { _ in })
        subscribed.add(sink)

        func video(keyframe: Bool, followsLoss: Bool) -> RemoteFrame {
            RemoteFrame(participantID: "v", kind: .video, codec: .vp8, bytes: [0x10, 0, 0], isKeyframe: keyframe, rtpTimestamp: 0,
                        clockRate: 90_000, wallTimeNanoseconds: 0, mappedBySenderReport: false, followsLoss: followsLoss)
        }
        // The sinks run on the track's worker lane: wait for it before each look at them.
        let lane = try #require(subscribed.lane, "the channel runs the track's sinks on a lane")
        core.receive(.frame(video(keyframe: true, followsLoss: false)))
        core.receive(.frame(video(keyframe: false, followsLoss: false)))
        await lane.flush()
        #expect(sink.counters.framesForwarded == 2)
        #expect(requests.withLock { $0 }.isEmpty)
        core.receive(.frame(video(keyframe: false, followsLoss: true)))
        core.receive(.frame(video(keyframe: false, followsLoss: false)))
        await lane.flush()
        #expect(sink.counters.framesForwarded == 2, "frames after a loss wait for a keyframe")
        #expect(requests.withLock { $0 } == ["v video"], "one request for the wait, through the channel")
        core.receive(.frame(video(keyframe: true, followsLoss: false)))
        await lane.flush()
        #expect(sink.counters.framesForwarded == 3)
        core.finish()
    }

    /// Tracks take the core's lanes in turn and their sinks run there, not on the thread that
    /// delivers (the transport loop); frames a full lane dropped are in the statistics report.
    @Test func sinksRunOnTheTracksLanesAndTheirDropsReachTheReport() async throws {
        let buffer = EventBuffer<ChannelEvent>()
        let events = buffer.stream
        let lanes = WorkerLanes(count: 2, capacity: 1, name: "test.core")
        defer { lanes.shutdown() }
        let core = ChannelCore(room: "r", statsInterval: .seconds(1), rawSink: nil, events: buffer, lanes: lanes)
        core.transition(to: .connecting)
        core.transition(to: .connected)
        core.receive(.participantJoined(id: "v", display: "V", at: Date()))
        core.receive(.trackAdded(participantID: "v", kind: .video, codec: .vp8))
        core.receive(.trackAdded(participantID: "v", kind: .audio, codec: .opus))
        var iterator = events.makeAsyncIterator()
        var tracks: [RemoteTrack] = []
        while tracks.count < 2, let event = await iterator.next() {
            if case .trackSubscribed(_, let track) = event { tracks.append(track) }
        }
        let videoLane = try #require(tracks[0].lane)
        let audioLane = try #require(tracks[1].lane)
        #expect(videoLane === lanes.lanes[0] && audioLane === lanes.lanes[1], "one lane each, in turn")

        let onLane = Mutex<[Bool]>([])
        tracks[0].add(RemoteTrackEncodedSink(waitsForKeyframe: false, delivery: .handler { _ in
            onLane.withLock { $0.append(videoLane.isCurrent) }
        }))
        let gate = LaneGate()
        try await gate.hold(videoLane)
        func video() -> RemoteFrame {
            RemoteFrame(participantID: "v", kind: .video, codec: .vp8, bytes: [0x10, 0, 0], isKeyframe: true, rtpTimestamp: 0,
                        clockRate: 90_000, wallTimeNanoseconds: 0, mappedBySenderReport: false)
        }
        for _ in 0..<3 { core.receive(.frame(video())) }
        gate.open()
        await videoLane.flush()
        #expect(onLane.withLock { $0 } == [true], "one frame waited and ran on the lane; two found it full")
        #expect(tracks[0].counters.framesDroppedLaneFull == 2)

        core.reportStatistics()
        var report: ChannelStatistics?
        while report == nil, let event = await iterator.next() {
            if case .statsReport(let statistics) = event { report = statistics }
        }
        let statistics = try #require(report)
        #expect(statistics.track(of: "v", kind: .video)?.sinkFramesDropped == 2)
        #expect(statistics.track(of: "v", kind: .audio)?.sinkFramesDropped == 0)
        #expect(statistics.statsString.contains("sink drops 2"))
        #expect(statistics.statsString.components(separatedBy: "sink drops").count == 2, "only the track that dropped says so")
        core.finish()
    }
}
