import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore

/// The queue behind every event stream: a slow consumer loses no roster event and sees them in
/// order, snapshots coalesce and are counted exactly, and the bounds hold with a marker in the gap.
@Suite struct EventBufferTests {
    static func user(_ index: Int) -> User { User(id: "u\(index)", display: "user \(index)") }

    static func report(_ index: Int) -> ChannelEvent {
        .statsReport(ChannelStatistics(room: "r", measuredAt: Date(timeIntervalSince1970: Double(index)), interval: .seconds(1),
                                       participants: [], published: []))
    }

    /// 10,000 statistics interleaved with 1,000 joins and 1,000 leaves, all before the consumer
    /// reads anything (the slowest consumer there is). `.bufferingNewest(4096)` keeps the last
    /// 4096 of these 12,000 events and so loses the first joins.
    @Test func aBurstBehindASlowConsumerKeepsEveryRosterEventInOrderAndCountsTheCoalesced() async {
        let buffer = EventBuffer<ChannelEvent>()
        var expectedRoster: [String] = []
        for index in 0..<10_000 {
            if index % 10 == 0 {
                buffer.yield(.userJoined(Self.user(index)))
                expectedRoster.append("joined u\(index)")
            }
            buffer.yield(Self.report(index))
            if index % 10 == 5 {
                buffer.yield(.userLeft(Self.user(index - 5)))
                expectedRoster.append("left u\(index - 5)")
            }
        }
        buffer.finish()
        var roster: [String] = []
        var reports: [Date] = []
        for await event in buffer.stream {
            switch event {
            case .statsReport(let report): reports.append(report.measuredAt)
            case .eventsLost(let count): Issue.record("lost \(count) events")
            default: roster.append(contentsOf: ChannelEventMapperTests.names([event]))
            }
        }
        #expect(roster.count == 2_000)
        let firstDifference = roster.indices.first { $0 >= expectedRoster.count || roster[$0] != expectedRoster[$0] }
        #expect(roster.first == "joined u0" && firstDifference == nil, "every join and leave, in order; first difference at \(firstDifference ?? -1)")
        #expect(reports.count == 1, "\(reports.count) reports")
        #expect(reports.last == Date(timeIntervalSince1970: 9_999), "only the newest report was still pending")
        #expect(buffer.counts == EventBufferCounts(coalesced: 9_999, dropped: 0))
    }

    /// The same burst from another thread into a consumer that reads while it comes, giving way
    /// after every event: however the two interleave, each report is delivered or counted.
    @Test func aConcurrentBurstDeliversOrCountsEveryReport() async {
        let buffer = EventBuffer<ChannelEvent>()
        let producer = Thread {
            for index in 0..<10_000 {
                if index % 10 == 0 { buffer.yield(.userJoined(Self.user(index))) }
                buffer.yield(Self.report(index))
            }
            buffer.finish()
        }
        producer.start()
        var joins: [String] = []
        var reports: [Date] = []
        for await event in buffer.stream {
            switch event {
            case .userJoined(let user): joins.append(user.id)
            case .statsReport(let report): reports.append(report.measuredAt)
            default: Issue.record("unexpected \(event)")
            }
            await Task.yield()
        }
        #expect(joins.count == 1_000 && joins == stride(from: 0, to: 10_000, by: 10).map { "u\($0)" }, "\(joins.count) joins, in order")
        #expect(reports.count + buffer.counts.coalesced == 10_000, "\(reports.count) delivered, \(buffer.counts.coalesced) coalesced")
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 < $1 }, "a coalesced report gives way to a newer one, never an older")
        #expect(reports.last == Date(timeIntervalSince1970: 9_999), "the newest report always arrives")
        #expect(buffer.counts.dropped == 0)
    }

    /// A newer snapshot takes its own place in the order: it follows the roster events that came
    /// before it, so a report never comes ahead of the join of a user it could describe.
    @Test func aCoalescedSnapshotMovesToTheNewerOnesPlace() async {
        let buffer = EventBuffer<ChannelEvent>()
        buffer.yield(Self.report(1))
        buffer.yield(.userJoined(Self.user(1)))
        buffer.yield(Self.report(2))
        buffer.yield(.userJoined(Self.user(2)))
        buffer.finish()
        var names: [String] = []
        for await event in buffer.stream {
            if case .statsReport(let report) = event { names.append("stats \(Int(report.measuredAt.timeIntervalSince1970))") } else {
                names += ChannelEventMapperTests.names([event])
            }
        }
        #expect(names == ["joined u1", "stats 2", "joined u2"])
        #expect(buffer.counts == EventBufferCounts(coalesced: 1, dropped: 0))
    }

    /// Past the ceiling nothing is kept silently: one marker stands for the run of lost events, in
    /// the place where they would have been, and events after a drain are accepted again.
    @Test func pastTheCeilingALostMarkerStandsInTheGap() async {
        let buffer = EventBuffer<ChannelEvent>(ceiling: 3)
        for index in 0..<5 { buffer.yield(.userJoined(Self.user(index))) }
        #expect(buffer.counts == EventBufferCounts(coalesced: 0, dropped: 2))
        var names: [String] = []
        names += ChannelEventMapperTests.names([await buffer.next()].compactMap { $0 })
        buffer.yield(.userJoined(Self.user(5)))
        buffer.yield(.userJoined(Self.user(6)))
        buffer.finish()
        for await event in buffer.stream { names += ChannelEventMapperTests.names([event]) }
        #expect(names == ["joined u0", "joined u1", "joined u2", "lost 2", "joined u5", "lost 1"])
        #expect(buffer.counts == EventBufferCounts(coalesced: 0, dropped: 3))
    }

    /// Data messages are kept in order up to their own limit, below the roster's ceiling; roster
    /// events still get in when data is full.
    @Test func dataMessagesHaveALimitOfTheirOwn() async {
        let buffer = EventBuffer<ChannelEvent>(ceiling: 100, limitedCapacity: 2)
        for index in 0..<4 { buffer.yield(.dataReceived(from: Self.user(index), payload: .text("m\(index)"))) }
        buffer.yield(.userJoined(Self.user(9)))
        buffer.finish()
        var names: [String] = []
        for await event in buffer.stream { names += ChannelEventMapperTests.names([event]) }
        #expect(names == ["data u0", "data u1", "lost 2", "joined u9"])
        #expect(buffer.counts == EventBufferCounts(coalesced: 0, dropped: 2))
    }

    /// A consumer that waits gets the next event at once; cancelling it ends the stream (as with
    /// `AsyncStream`), and later events are neither kept nor counted.
    @Test func aWaitingConsumerIsWokenAndCancellingItEndsTheStream() async throws {
        let buffer = EventBuffer<ChannelEvent>()
        let consumer = Task { await buffer.next() }
        try await pollUntil(timeout: .seconds(5), "the consumer waits") { buffer.pendingCount == 0 && Self.hasWaiter(buffer) }
        buffer.yield(.userJoined(Self.user(1)))
        let first = await consumer.value
        #expect(first.map { ChannelEventMapperTests.names([$0]) } == ["joined u1"])

        let cancelled = Task { await buffer.next() }
        try await pollUntil(timeout: .seconds(5), "the second consumer waits") { Self.hasWaiter(buffer) }
        cancelled.cancel()
        let afterCancel = await cancelled.value
        #expect(afterCancel == nil)
        buffer.yield(.userJoined(Self.user(2)))
        buffer.finish()  // must not resume the cancelled consumer a second time
        #expect(buffer.pendingCount == 0)
        let afterEnd = await buffer.next()
        #expect(afterEnd == nil)
        #expect(buffer.counts.isZero)
    }

    /// Statistics carry the counts, and the text form shows them only when there is something to say.
    @Test func statisticsShowTheCounts() {
        var report = ChannelStatistics(room: "r", measuredAt: Date(), interval: .seconds(1), participants: [], published: [])
        #expect(!report.statsString.contains("events"))
        report.events = EventBufferCounts(coalesced: 12, dropped: 3)
        #expect(report.statsString.split(separator: "\n").last == "  events behind: 12 coalesced, 3 dropped")
    }

    static func hasWaiter(_ buffer: EventBuffer<ChannelEvent>) -> Bool { buffer.waiterCount > 0 }
}
