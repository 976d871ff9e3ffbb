import Agent
import Foundation
import TestSupport
import Testing

@testable import BotKit

@Suite(.offThePool) struct WebMSourceTests {
    private func drain(_ source: EncodedFrameSource?) throws -> [EncodedMediaFrame] {
        var frames: [EncodedMediaFrame] = []
        while let frame = try source?.next() { frames.append(frame) }
        return frames
    }

    /// The largest gap between our times and ffprobe's (which prints milliseconds).
    private func drift(_ frames: [EncodedMediaFrame], _ packets: [WebMFixtures.Packet]) -> Int64 {
        zip(frames, packets).map { abs($0.timestampNanoseconds - $1.nanoseconds) }.max() ?? .max
    }

    @Test func audioAndVideoCarryTheFilesOwnTimes() async throws {
        let scratch = try ScratchDirectory("webm-source")
        let path = scratch.path("av.webm")
        try await WebMFixtures.ffmpeg(path)
        let packets = try await WebMFixtures.probe(path)
        let source = try WebMSource(path: path)
        #expect(source.width == 320 && source.height == 240)
        #expect(source.audio?.kind == .audio && source.video?.kind == .video)
        #expect(source.sources.count == 2)

        // All the audio first: the video frames read on the way wait in the video queue.
        let audio = try drain(source.audio)
        let video = try drain(source.video)
        let probedAudio = packets.filter { $0.kind == "audio" }
        let probedVideo = packets.filter { $0.kind == "video" }
        #expect(audio.count == probedAudio.count && video.count == 75)
        #expect(drift(audio, probedAudio) <= 1_000_000)
        #expect(drift(video, probedVideo) <= 1_000_000)
        // CodecDelay is taken off: the first Opus packet starts 6.5 ms before zero, like Ogg pre-skip.
        #expect(audio.first?.timestampNanoseconds == -6_500_000)
        #expect(video.first?.timestampNanoseconds == 7_000_000)
        #expect(video.map(\.isKeyframe) == probedVideo.map(\.isKeyframe))
        #expect(video.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 25, 50])
        #expect(audio.allSatisfy { $0.codec == .opus && $0.isKeyframe })
        #expect(video.allSatisfy { $0.codec == .vp8 })
    }

    @Test func lacedOpusIsTimedPacketByPacket() async throws {
        let scratch = try ScratchDirectory("webm-source")
        let original = scratch.path("simple.webm")
        let laced = scratch.path("laced.webm")
        try await WebMFixtures.ffmpeg(original)
        try await WebMFixtures.mkvmerge(original, to: laced, engage: ["no_simpleblocks", "lacing_xiph"])
        let reader = try WebMReader(path: laced)
        #expect(try reader.readAll().contains { $0.laceCount == 8 })

        let lacedAudio = try drain(WebMSource(path: laced).audio)
        let simpleAudio = try drain(WebMSource(path: original).audio)
        let probed = try await WebMFixtures.probe(laced).filter { $0.kind == "audio" }
        #expect(lacedAudio.count == probed.count && lacedAudio.count == simpleAudio.count)
        // Each lace starts 20 ms (its TOC duration) after the one before, not at the block's time.
        #expect(drift(lacedAudio, probed) <= 1_000_000)
        let gaps = zip(lacedAudio, simpleAudio).map { abs($0.timestampNanoseconds - $1.timestampNanoseconds) }
        #expect(gaps.max() ?? .max <= 1_000_000)
        #expect(lacedAudio.map(\.bytes) == simpleAudio.map(\.bytes))
    }

    @Test func playlistInterleavesBothTracksWithinASmallQueue() async throws {
        let scratch = try ScratchDirectory("webm-source")
        let path = scratch.path("playlist.webm")
        try await WebMFixtures.ffmpeg(path, seconds: 2)
        let packetCount = try await WebMFixtures.probe(path).count
        // Pulled in time order, an ffmpeg file never runs more than a few frames ahead.
        let source = try WebMSource(path: path, queueLimit: .init(frames: 4, bytes: 64 << 10))
        let playlist = FramePlaylist(sources: source.sources, loop: false)
        var items: [FramePlaylist.Item] = []
        while let item = try playlist.next() { items.append(item) }
        #expect(items.count == packetCount)
        #expect(zip(items, items.dropFirst()).allSatisfy { $0.playbackNanoseconds <= $1.playbackNanoseconds })
        #expect(playlist.clampedFrames == 0)

        let decoder = try VPXDecoder(codec: .vp8)
        var pictures = 0
        for item in items where item.kind == .video {
            for picture in try decoder.decode(item.frame.bytes) where picture.width == 320 && picture.height == 240 { pictures += 1 }
        }
        #expect(pictures == 50)
        let opus = try OpusDecoder(channels: 1)
        var pcm: [Int16] = []
        for item in items where item.kind == .audio { pcm += try opus.decode(item.frame.bytes) }
        let steady = pcm[9_600..<57_600]
        #expect(goertzelPower(steady, frequency: 440) > 1_000 * goertzelPower(steady, frequency: 1_000))
    }

    @Test func theQueueBoundStopsATrackNobodyPulls() async throws {
        let scratch = try ScratchDirectory("webm-source")
        let path = scratch.path("bound.webm")
        try await WebMFixtures.ffmpeg(path, seconds: 2)
        let limit = WebMSource.QueueLimit(frames: 8, bytes: 1 << 20)

        // Only audio pulled: the ninth video frame waiting breaks the bound.
        let both = try WebMSource(path: path, queueLimit: limit)
        let error = #expect(throws: WebMReaderError.self) { _ = try drain(both.audio) }
        guard case .interleavingTooLoose(let track, let frames, let bytes)? = error else {
            Issue.record("expected interleavingTooLoose, got \(String(describing: error))")
            return
        }
        #expect(track == both.video?.track.number && frames == 9 && bytes > 1_000)

        // Asked for audio alone, the video frames are dropped on the way, not queued.
        let audioOnly = try WebMSource(path: path, kinds: [.audio], queueLimit: limit)
        #expect(audioOnly.video == nil && audioOnly.width == nil)
        #expect(try drain(audioOnly.audio).count == (try await WebMFixtures.probe(path)).filter { $0.kind == "audio" }.count)
    }

    @Test func rewindStartsBothTracksOver() async throws {
        let scratch = try ScratchDirectory("webm-source")
        let path = scratch.path("rewind.webm")
        try await WebMFixtures.ffmpeg(path, seconds: 1)
        let source = try WebMSource(path: path)
        let firstAudio = try source.audio?.next()
        let firstVideo = try source.video?.next()
        for _ in 0..<20 { _ = try source.audio?.next() }
        try source.audio?.rewind()
        try source.video?.rewind()  // the second rewind in a row is a no-op
        #expect(try source.audio?.next() == firstAudio)
        #expect(try source.video?.next() == firstVideo)

        // Looping through FramePlaylist: each pass sends the same frames, one after the other.
        let looping = try WebMSource(path: path)
        let playlist = FramePlaylist(sources: looping.sources, loop: true)
        let perPass = try await WebMFixtures.probe(path).count
        var items: [FramePlaylist.Item] = []
        for _ in 0..<(2 * perPass) { items.append(try #require(try playlist.next())) }
        let passes = Dictionary(grouping: items, by: \.pass)
        #expect(passes[0]?.count == perPass && passes[1]?.count == perPass)
        #expect(passes[0]?.map(\.frame) == passes[1]?.map(\.frame))
        #expect((passes[1]?.first?.playbackNanoseconds ?? 0) > (passes[0]?.last?.playbackNanoseconds ?? .max))
    }

    @Test func otherCodecsAreRefusedByName() async throws {
        let scratch = try ScratchDirectory("webm-source")
        let vp9 = scratch.path("vp9.webm")
        try await WebMFixtures.ffmpeg(vp9, seconds: 1, size: "160x120", video: "libvpx-vp9",
                                extra: ["-deadline", "realtime", "-cpu-used", "8"])
        #expect(throws: WebMReaderError.unsupportedCodec("V_VP9")) { try WebMSource(path: vp9) }
        // Its Opus audio plays when video is left out.
        let audioOfVP9 = try WebMSource(path: vp9, kinds: [.audio])
        #expect(audioOfVP9.video == nil && audioOfVP9.audio?.track.codecID == "A_OPUS")
        #expect(try drain(audioOfVP9.audio).count >= 50)

        let vorbis = scratch.path("vorbis.webm")
        try await WebMFixtures.ffmpeg(vorbis, seconds: 1, size: "160x120", audio: "libvorbis")
        #expect(throws: WebMReaderError.unsupportedCodec("A_VORBIS")) { try WebMSource(path: vorbis) }

        // A Matroska file with only a subtitle track has nothing to play.
        let subtitles = scratch.path("subtitles.srt")
        try "1\n00:00:00,000 --> 00:00:01,000\nhello\n".write(toFile: subtitles, atomically: true, encoding: .utf8)
        let textOnly = scratch.path("text.mkv")
        try await WebMFixtures.mkvmerge(subtitles, to: textOnly, engage: [], webm: false)
        #expect(try WebMReader(path: textOnly).tracks.map(\.codecID) == ["S_TEXT/UTF8"])
        #expect(throws: WebMReaderError.noSupportedTracks) { try WebMSource(path: textOnly) }
    }

    @Test func aTruncatedFilePlaysUpToTheCutThenFails() async throws {
        let scratch = try ScratchDirectory("webm-source")
        let path = scratch.path("whole.webm")
        try await WebMFixtures.ffmpeg(path, seconds: 2)
        let bytes = try WebMFixtures.bytes(path)
        let cut = bytes.count / 2
        let packets = try await WebMFixtures.probe(path).filter { $0.position + 4 + $0.size <= cut }
        let cutPath = scratch.path("cut.webm")
        try WebMFixtures.write(Array(bytes[0..<cut]), to: cutPath)

        let playlist = FramePlaylist(sources: try WebMSource(path: cutPath).sources, loop: false)
        var played = 0
        let error = #expect(throws: WebMReaderError.self) { while try playlist.next() != nil { played += 1 } }
        #expect(error == .truncated("the file ends inside an element at byte \(cut)"))
        // Frames still queued for one track when the other hit the cut are not played.
        #expect(played > 20 && played <= packets.count)
    }
}
