import Agent
import Testing

@testable import BotKit

/// The playlist's timeline: frames of one entry interleaved by time, entries one after another,
/// loops continuing the timeline, and nothing played forever from empty files.
@Suite("FramePlaylist")
struct FramePlaylistTests {
    /// Frames at the given milliseconds; counts rewinds.
    final class ScriptedSource: EncodedFrameSource {
        let kind: MediaKind
        var codec: MediaCodec { kind == .audio ? .opus : .vp8 }
        let times: [Int64]
        var index = 0
        var rewinds = 0

        init(_ kind: MediaKind, milliseconds: [Int64]) {
            self.kind = kind
            times = milliseconds
        }

        func next() throws -> EncodedMediaFrame? {
            guard index < times.count else { return nil }
            defer { index += 1 }
            return EncodedMediaFrame(
                bytes: [UInt8(index & 0xFF)], timestampNanoseconds: times[index] * 1_000_000, isKeyframe: index == 0,
                codec: kind == .audio ? .opus : .vp8)
        }

        func rewind() throws {
            index = 0
            rewinds += 1
        }
    }

    static func drain(_ playlist: FramePlaylist, limit: Int = 100) throws -> [FramePlaylist.Item] {
        var items: [FramePlaylist.Item] = []
        while items.count < limit, let item = try playlist.next() { items.append(item) }
        return items
    }

    @Test("one entry: audio and video come interleaved by their times")
    func interleaves() throws {
        let audio = ScriptedSource(.audio, milliseconds: [0, 20, 40, 60])
        let video = ScriptedSource(.video, milliseconds: [0, 33, 66])
        let items = try Self.drain(FramePlaylist(sources: [audio, video], loop: false))
        #expect(items.map { $0.playbackNanoseconds / 1_000_000 } == [0, 0, 20, 33, 40, 60, 66])
        #expect(items.filter { $0.kind == .video }.count == 3)
        #expect(Set(items.map(\.entry)) == [0] && Set(items.map(\.pass)) == [0])
    }

    @Test("entries play in order, each after the previous one's longest track plus a 20 ms gap")
    func entriesFollowEachOther() throws {
        let first = ScriptedSource(.audio, milliseconds: [0, 20, 40])
        let firstVideo = ScriptedSource(.video, milliseconds: [0, 100])
        let second = ScriptedSource(.audio, milliseconds: [0, 20])
        let items = try Self.drain(FramePlaylist(entries: [[first, firstVideo], [second]], loop: false))
        let secondEntry = items.filter { $0.entry == 1 }
        #expect(secondEntry.map { $0.playbackNanoseconds / 1_000_000 } == [120, 140])
        #expect(items.count == 7)
        #expect(second.rewinds == 1, "an entry's files start from their beginning")
    }

    @Test("loop: passes continue one timeline and rewind every file")
    func loopsOnOneTimeline() throws {
        let audio = ScriptedSource(.audio, milliseconds: [0, 20, 40])
        let video = ScriptedSource(.video, milliseconds: [0, 30])
        let items = try Self.drain(FramePlaylist(sources: [audio, video], loop: true), limit: 15)
        #expect(items.map(\.pass) == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2])
        let times = items.map(\.playbackNanoseconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
        // Pass 1 starts 40 ms (its longest track) + 20 ms after pass 0 started.
        #expect(items[5].playbackNanoseconds == 60_000_000)
        #expect(audio.rewinds == 2 && video.rewinds == 2)
    }

    @Test("looping over files with no frames ends instead of spinning")
    func emptyFilesEnd() throws {
        let playlist = FramePlaylist(sources: [ScriptedSource(.audio, milliseconds: [])], loop: true)
        #expect(try playlist.next() == nil)
        #expect(FramePlaylist(entries: [], loop: true).kinds.isEmpty)
    }

    @Test("a frame earlier than its predecessor is sent at the predecessor's time and counted")
    func clampsBackwardTimes() throws {
        let playlist = FramePlaylist(sources: [ScriptedSource(.video, milliseconds: [0, 40, 30, 80])], loop: false)
        let items = try Self.drain(playlist)
        #expect(items.map { $0.playbackNanoseconds / 1_000_000 } == [0, 40, 40, 80])
        #expect(playlist.clampedFrames == 1)
    }
}
