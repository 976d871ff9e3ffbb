import Foundation
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentMedia
@testable import AgentTransport
@testable import BotKit

/// The playlist read ahead on a worker lane: the same items in the same order as reading it
/// directly, a bounded read-ahead, read errors after the items before them, underruns counted.
@Suite(.offThePool) struct FramePrefetchTests {
    typealias Source = FramePlaylistTests.ScriptedSource

    /// A source that throws on its `failAt`th frame.
    final class FailingSource: EncodedFrameSource {
        struct Broken: Error, CustomStringConvertible {
            var description: String { "broken frame" }
        }

        let kind = MediaKind.audio
        let codec = MediaCodec.opus
        let failAt: Int
        var index = 0

        init(failAt: Int) { self.failAt = failAt }

        func next() throws -> EncodedMediaFrame? {
            defer { index += 1 }
            if index == failAt { throw Broken() }
            return EncodedMediaFrame(bytes: [1], timestampNanoseconds: Int64(index) * 20_000_000, isKeyframe: true, codec: .opus)
        }

        func rewind() throws { index = 0 }
    }

    /// Everything `prefetch` gives until it ends, waiting for the lane itself whenever nothing is
    /// read yet (no clock, which a busy test run would starve); a prefetch that never ends fails.
    static func drain(_ prefetch: FramePrefetch, on lane: WorkerLane) async -> (items: [FramePlaylist.Item], readError: String?)? {
        var items: [FramePlaylist.Item] = []
        for _ in 0..<100_000 {
            switch prefetch.next() {
            case .item(let item): items.append(item)
            case .waiting: await lane.flush()
            case .ended(let error): return (items, error)
            }
        }
        Issue.record("the prefetch never ended (\(items.count) items)")
        return nil
    }

    @Test func theSameItemsInTheSameOrderAsReadingThePlaylist() async throws {
        let lane = WorkerLane(name: "test.frames", capacity: 4)
        defer { lane.shutdown() }
        func playlist() -> FramePlaylist {
            FramePlaylist(entries: [[Source(.audio, milliseconds: Array(stride(from: 0, to: 2000, by: 20))),
                                     Source(.video, milliseconds: Array(stride(from: 0, to: 2000, by: 33)))],
                                    [Source(.audio, milliseconds: [0, 20, 40])]], loop: false)
        }
        let direct = try FramePlaylistTests.drain(playlist(), limit: 1000)
        let (items, readError) = try #require(await Self.drain(FramePrefetch(playlist(), capacity: 8, lane: lane), on: lane))
        #expect(readError == nil)
        #expect(items.count == direct.count && items.count == 100 + 61 + 3)
        #expect(items.map(\.playbackNanoseconds) == direct.map(\.playbackNanoseconds))
        // Frames of two tracks at the same time may come in either order (the playlist's own tie).
        let key = { (item: FramePlaylist.Item) in "\(item.playbackNanoseconds) \(item.kind)" }
        #expect(items.map(key).sorted() == direct.map(key).sorted())
        #expect(items.map(\.entry) == direct.map(\.entry))
    }

    @Test func readsAheadNoMoreThanItsCapacity() async throws {
        let lane = WorkerLane(name: "test.frames", capacity: 4)
        defer { lane.shutdown() }
        let source = Source(.audio, milliseconds: Array(stride(from: 0, to: 100_000, by: 20)))
        let prefetch = FramePrefetch(FramePlaylist(sources: [source], loop: true), capacity: 8, lane: lane)
        await lane.flush()
        #expect(source.index == 8, "read \(source.index) frames with nothing taken")
        for _ in 0..<3 { if case .item = prefetch.next() {} else { Issue.record("an item was read") } }
        await lane.flush()
        #expect(source.index == 8, "more than half full: no read")
        if case .item = prefetch.next() {} else { Issue.record("an item was read") }
        await lane.flush()
        #expect(source.index == 8 + 4, "refilled to 8 from half")
    }

    @Test func aReadErrorEndsTheListAfterTheItemsBeforeIt() async throws {
        let lane = WorkerLane(name: "test.frames", capacity: 4)
        defer { lane.shutdown() }
        let prefetch = FramePrefetch(FramePlaylist(sources: [FailingSource(failAt: 20)], loop: false), capacity: 8, lane: lane)
        let (items, readError) = try #require(await Self.drain(prefetch, on: lane))
        #expect(items.count == 20)
        #expect(readError == "broken frame")
    }

    @Test func aBusyLaneIsAnUnderrunOnceItemsFlowed() async throws {
        let lane = WorkerLane(name: "test.frames", capacity: 4)
        defer { lane.shutdown() }
        let blocked = AudioPrefetchTests.block(lane)
        let source = Source(.audio, milliseconds: Array(stride(from: 0, to: 10_000, by: 20)))
        let prefetch = FramePrefetch(FramePlaylist(sources: [source], loop: false), capacity: 4, lane: lane)
        if case .waiting = prefetch.next() {} else { Issue.record("nothing can be read yet") }
        #expect(prefetch.underruns == 0, "before the first item, not an underrun")
        blocked.signal()
        await lane.flush()
        let again = AudioPrefetchTests.block(lane)
        // The refill asked for at the second take waits behind the blocking job.
        for _ in 0..<4 { if case .item = prefetch.next() {} else { Issue.record("read ahead") } }
        if case .waiting = prefetch.next() {} else { Issue.record("the lane is blocked") }
        #expect(prefetch.underruns == 1)
        again.signal()
        await lane.flush()
        if case .item(let item) = prefetch.next() {
            #expect(item.playbackNanoseconds == 80_000_000, "nothing skipped")
        } else {
            Issue.record("read after the lane was free")
        }
    }
}
