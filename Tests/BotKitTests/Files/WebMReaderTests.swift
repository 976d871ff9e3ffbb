import Agent
import Foundation
import TestSupport
import Testing

@testable import BotKit

@Suite(.offThePool) struct WebMReaderTests {
    /// The frames of `path` grouped by track kind, in file order.
    private func framesByKind(_ reader: WebMReader) throws -> [String: [WebMFrame]] {
        var byKind: [String: [WebMFrame]] = [:]
        for frame in try reader.readAll() {
            let type = reader.track(number: frame.trackNumber)?.type
            byKind[type == .video ? "video" : type == .audio ? "audio" : "other", default: []].append(frame)
        }
        return byKind
    }

    @Test func ffmpegWebMMatchesFfprobeFrameForFrame() async throws {
        let scratch = try ScratchDirectory("webm")
        let path = scratch.path("ffmpeg.webm")
        try await WebMFixtures.ffmpeg(path)
        let packets = try await WebMFixtures.probe(path)
        let reader = try WebMReader(path: path)

        #expect(reader.tracks.count == 2)
        let video = try #require(reader.tracks.first { $0.type == .video })
        let audio = try #require(reader.tracks.first { $0.type == .audio })
        #expect(video.codecID == "V_VP8" && video.width == 320 && video.height == 240)
        #expect(audio.codecID == "A_OPUS" && audio.channels == 1 && audio.samplingFrequency == 48_000)
        #expect(audio.codecPrivate.starts(with: Array("OpusHead".utf8)) && audio.codecPrivate.count == 19)
        #expect(audio.codecDelayNanoseconds == 6_500_000)  // libopus's 312-sample pre-skip

        let frames = try framesByKind(reader)
        for kind in ["video", "audio"] {
            let probed = packets.filter { $0.kind == kind }
            let read = frames[kind] ?? []
            #expect(read.count == probed.count, "\(kind)")
            #expect(read.map(\.bytes.count) == probed.map(\.size), "\(kind)")
            #expect(read.map(\.isKeyframe) == probed.map(\.isKeyframe), "\(kind)")
            // ffprobe subtracts CodecDelay and prints milliseconds.
            let delay = kind == "audio" ? audio.codecDelayNanoseconds : 0
            let drift = zip(read, probed).map { abs($0.timestampNanoseconds - delay - $1.nanoseconds) }.max() ?? 0
            #expect(drift <= 1_000_000, "\(kind) times differ from ffprobe's by up to \(drift) ns")
        }
        // 3 s: 75 pictures, and 20 ms Opus packets (ffmpeg adds one for the encoder delay).
        #expect(frames["video"]?.count == 75)
        #expect((150...151).contains(frames["audio"]?.count ?? 0))
        #expect(frames["video"]?.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 25, 50])
        #expect(frames["video"]?.map(\.laceCount).allSatisfy { $0 == 1 } == true)
        #expect(try reader.nextFrame() == nil)
        #expect(try reader.nextFrame() == nil)
    }

    @Test func framesDecodeToThePictureAndTheTone() async throws {
        let scratch = try ScratchDirectory("webm")
        let path = scratch.path("decode.webm")
        try await WebMFixtures.ffmpeg(path, seconds: 2)
        let frames = try framesByKind(WebMReader(path: path))

        let decoder = try VPXDecoder(codec: .vp8)
        var sizes: [String: Int] = [:]
        for frame in frames["video"] ?? [] {
            for picture in try decoder.decode(frame.bytes) { sizes["\(picture.width)x\(picture.height)", default: 0] += 1 }
        }
        #expect(sizes == ["320x240": 50])

        let opus = try OpusDecoder(channels: 1)
        var pcm: [Int16] = []
        for frame in frames["audio"] ?? [] { pcm += try opus.decode(frame.bytes) }
        #expect(pcm.count == (frames["audio"]?.count ?? 0) * 960 && pcm.count >= 96_000)
        // Skip the encoder's start-up, then the tone must dominate a neighbouring frequency.
        let steady = pcm[9_600..<57_600]
        let tone = goertzelPower(steady, frequency: 440)
        let off = goertzelPower(steady, frequency: 1_000)
        #expect(tone > 1_000 * off, "440 Hz power \(tone) vs 1 kHz \(off)")
    }

    @Test func mkvmergeBlockGroupsAndLacedAudioGiveTheSameFrames() async throws {
        let scratch = try ScratchDirectory("webm")
        let original = scratch.path("ffmpeg.webm")
        try await WebMFixtures.ffmpeg(original)
        let reference = try framesByKind(WebMReader(path: original))

        for lacing in ["lacing_xiph", "lacing_ebml"] {
            let remuxed = scratch.path("\(lacing).webm")
            try await WebMFixtures.mkvmerge(original, to: remuxed, engage: ["no_simpleblocks", lacing])
            let reader = try WebMReader(path: remuxed)
            let frames = try framesByKind(reader)
            // The same frames, byte for byte, whether in SimpleBlocks or laced into BlockGroups.
            #expect(frames["audio"]?.map(\.bytes) == reference["audio"]?.map(\.bytes), "\(lacing)")
            #expect(frames["video"]?.map(\.bytes) == reference["video"]?.map(\.bytes), "\(lacing)")
            // Keyframes known from the BlockGroups' missing ReferenceBlock, as from SimpleBlock flags.
            #expect(frames["video"]?.map(\.isKeyframe) == reference["video"]?.map(\.isKeyframe), "\(lacing)")
            #expect(frames["video"]?.map(\.timestampNanoseconds) == reference["video"]?.map(\.timestampNanoseconds))
            // mkvmerge laces 8 Opus packets per block; each lace knows its place.
            let audio = frames["audio"] ?? []
            #expect(audio.first?.laceCount == 8, "\(lacing)")
            #expect(audio.prefix(8).map(\.laceIndex) == Array(0..<8))
            #expect(audio.prefix(8).allSatisfy { $0.timestampNanoseconds == audio[0].timestampNanoseconds })
            let probed = try await WebMFixtures.probe(remuxed)
            #expect(probed.filter { $0.kind == "audio" }.count == audio.count)
        }
    }

    @Test func manyClustersAndLiveFilesKeepAbsoluteTimes() async throws {
        let scratch = try ScratchDirectory("webm")
        let clustered = scratch.path("clusters.webm")
        try await WebMFixtures.ffmpeg(clustered, extra: ["-cluster_size_limit", "20000", "-cluster_time_limit", "500"])
        let bytes = try WebMFixtures.bytes(clustered)
        let clusterCount = WebMFixtures.segmentChildren(of: bytes).filter { $0.id == 0x1F43_B675 }.count
        #expect(clusterCount >= 6)
        let packets = try await WebMFixtures.probe(clustered)
        let reader = try WebMReader(path: clustered)
        let delay = try #require(reader.tracks.first { $0.type == .audio }).codecDelayNanoseconds
        let frames = try reader.readAll()
        #expect(frames.count == packets.count)
        let drift = zip(frames, packets).map { frame, packet in
            abs(frame.timestampNanoseconds - (packet.kind == "audio" ? delay : 0) - packet.nanoseconds)
        }.max() ?? 0
        #expect(drift <= 1_000_000)

        // The same file with every Cluster of unknown size, and a live-style Segment: it ends
        // after its last block, cleanly.
        let live = scratch.path("live.webm")
        try await WebMFixtures.ffmpeg(live, extra: ["-live", "1", "-cluster_size_limit", "20000", "-cluster_time_limit", "500"])
        let liveBytes = try WebMFixtures.bytes(live)
        let (unknownSizes, patched) = WebMFixtures.clustersOfUnknownSize(liveBytes)
        #expect(patched >= 6)
        let unsized = scratch.path("unsized.webm")
        try WebMFixtures.write(unknownSizes, to: unsized)
        let liveFrames = try WebMReader(path: live).readAll()
        let unsizedFrames = try WebMReader(path: unsized).readAll()
        #expect(liveFrames.count == (try await WebMFixtures.probe(live)).count && liveFrames.count >= 225)
        #expect(unsizedFrames == liveFrames)

        // libwebm ends a document at any element boundary inside parents of unknown size, so a
        // live file cut between two blocks just ends there (that is how a live recording stops);
        // a file whose sizes are known, cut at the same kind of place, is truncated.
        let liveBlocks = WebMFixtures.simpleBlockOffsets(in: liveBytes)  // the patch moved nothing
        #expect(liveBlocks.count > 20)
        let liveCut = scratch.path("live-cut.webm")
        try WebMFixtures.write(Array(unknownSizes[0..<liveBlocks[20]]), to: liveCut)
        #expect(try WebMReader(path: liveCut).readAll() == Array(unsizedFrames.prefix(20)))
        let sizedBlocks = WebMFixtures.simpleBlockOffsets(in: bytes)
        let sizedCut = scratch.path("sized-cut.webm")
        try WebMFixtures.write(Array(bytes[0..<sizedBlocks[20]]), to: sizedCut)
        let sizedReader = try WebMReader(path: sizedCut)
        for _ in 0..<20 { _ = try sizedReader.nextFrame() }
        #expect(throws: WebMReaderError.truncated("the file ends inside an element at byte \(sizedBlocks[20])")) {
            try sizedReader.nextFrame()
        }
    }

    @Test func theParserReadsOneFrameAtATime() async throws {
        let scratch = try ScratchDirectory("webm")
        let path = scratch.path("stream.webm")
        try await WebMFixtures.ffmpeg(path, seconds: 8, size: "640x480", extra: ["-b:v", "4M", "-deadline", "realtime", "-cpu-used", "8"])
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(fileSize > 1_000_000)
        let packets = try await WebMFixtures.probe(path)
        let reader = try WebMReader(path: path)
        // Opening parses the headers and stops at the first block.
        #expect(reader.bytesConsumed < 1_000, "\(reader.bytesConsumed) bytes consumed by opening")
        // Each frame is parsed only as far as its own last byte: its block body starts at the
        // probed position with 4 header bytes (track number, timecode, flags). The last Opus
        // packet is in a BlockGroup, whose DiscardPadding is parsed before the frame is handed out.
        var consumed: [Int] = []
        while try reader.nextFrame() != nil { consumed.append(Int(reader.bytesConsumed)) }
        let ends = packets.map { $0.position + 4 + $0.size }
        #expect(consumed.count == packets.count)
        #expect(consumed.dropLast() == ends.dropLast())
        #expect(consumed.last.map { (ends.last!...(ends.last! + 32)).contains($0) } == true)
        #expect(consumed.first.map { $0 < fileSize / 100 } == true)
    }

    @Test func badFilesThrowTypedErrors() async throws {
        let scratch = try ScratchDirectory("webm")
        func file(_ name: String, _ contents: [UInt8]) throws -> String {
            let path = scratch.path(name)
            try WebMFixtures.write(contents, to: path)
            return path
        }
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let garbageError = #expect(throws: WebMReaderError.self) { try WebMReader(path: file("garbage.webm", garbage)) }
        #expect(garbageError?.isNotWebM == true, "\(String(describing: garbageError))")
        #expect(throws: WebMReaderError.notWebM("the file is empty")) { try WebMReader(path: file("empty.webm", [])) }
        #expect(throws: WebMReaderError.cannotOpen(path: scratch.path("missing.webm"), message: "No such file or directory")) {
            try WebMReader(path: scratch.path("missing.webm"))
        }
        let otherDocType: [UInt8] = [
            0x1A, 0x45, 0xDF, 0xA3,  // EBML
            0x86,  // size 6
            0x42, 0x82,  // DocType
            0x83,  // size 3
            0x66, 0x6F, 0x6F,  // "foo"
        ]
        #expect(throws: WebMReaderError.notWebM("the EBML DocType is \"foo\", not webm")) {
            try WebMReader(path: file("foo.ebml", otherDocType))
        }
        let matroskaNoSegment: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x8B, 0x42, 0x82, 0x88] + Array("matroska".utf8)
        #expect(try WebMReader(path: file("bare.mkv", matroskaNoSegment)).tracks.isEmpty)

        let good = scratch.path("good.webm")
        try await WebMFixtures.ffmpeg(good, seconds: 2)
        let bytes = try WebMFixtures.bytes(good)
        let packets = try await WebMFixtures.probe(good)

        // Cut in the Tracks element: the headers are incomplete.
        #expect(throws: WebMReaderError.truncated("the file ends inside an element at byte 300")) {
            try WebMReader(path: file("headers.webm", Array(bytes[0..<300])))
        }

        // Cut mid-cluster: every frame wholly before the cut comes back, then `truncated`, for good.
        let cut = bytes.count * 3 / 5
        let cutReader = try WebMReader(path: file("cut.webm", Array(bytes[0..<cut])))
        var before = 0
        var failure: WebMReaderError?
        do {
            while try cutReader.nextFrame() != nil { before += 1 }
        } catch {
            failure = error
        }
        #expect(before == packets.filter { $0.position + 4 + $0.size <= cut }.count)
        #expect(before > 50)
        #expect(failure == .truncated("the file ends inside an element at byte \(cut)"))
        #expect(throws: failure!) { try cutReader.nextFrame() }

        // A SimpleBlock ID zeroed: the frames before it, then `corrupt`.
        let blocks = WebMFixtures.simpleBlockOffsets(in: bytes)
        #expect(blocks.count > 20)
        var broken = bytes
        broken[blocks[10]] = 0x00
        let brokenReader = try WebMReader(path: file("broken.webm", broken))
        #expect(try brokenReader.nextFrame() != nil)
        var read = 1
        let corruption = #expect(throws: WebMReaderError.self) { while try brokenReader.nextFrame() != nil { read += 1 } }
        #expect(corruption == .corrupt("invalid element ID at byte \(blocks[10] + 1)"), "\(String(describing: corruption))")
        #expect(read == 10)
    }
}

/// Files that declare more than they hold. libwebm allocates a string or binary element's
/// declared size before reading it, and the shim allocated a frame's: each of these made the
/// reader take what was declared (the first, 26 bytes, took `agentd play` to 1.08 GB).
@Suite struct WebMReaderDeclaredSizeTests {
    /// The process's peak resident set (VmHWM), in bytes.
    static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes * 1024
    }

    /// Runs `body` and expects the peak resident set to grow by less than `limit` bytes.
    static func expectNoBigAllocation(limit: Int = 24 << 20, _ body: () throws -> Void) throws {
        let before = try peakResidentBytes()
        try body()
        let grown = try peakResidentBytes() - before
        #expect(grown < limit, "the peak RSS grew by \(grown >> 20) MiB")
    }

    /// An EBML element with an 8-byte size field (0x01 + 7 bytes), or an unknown size.
    static func element(_ id: [UInt8], size: UInt64? = nil, _ body: [UInt8] = []) -> [UInt8] {
        guard let size = size ?? UInt64(exactly: body.count) else { return [] }
        return id + [0x01] + (0..<7).reversed().map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + body
    }

    static let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// The 26-byte fixture: an EBML header whose DocType declares 1 GiB, more than any header
    /// element may have.
    static let docTypeBomb: [UInt8] = [
        0x1A, 0x45, 0xDF, 0xA3,  // EBML
        0x01, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x07,  // size 2^30 + 7
        0x42, 0x82,  // DocType
        0x08, 0x40, 0x00, 0x00, 0x00,  // size 2^30
        0x77, 0x65, 0x62, 0x6D, 0x00, 0x00, 0x00,  // "webm" and the start of a gigabyte
    ]

    @Test func aDocTypeAboveTheLimitIsRefusedUnread() throws {
        #expect(Self.docTypeBomb.count == 26)
        let scratch = try ScratchDirectory("webm-sizes")
        let path = scratch.path("doctype-bomb.webm")
        try WebMFixtures.write(Self.docTypeBomb, to: path)
        try Self.expectNoBigAllocation {
            #expect(throws: WebMReaderError.corrupt("the DocType element at byte 12 declares 1073741824 bytes, more than the 16777216 the reader takes")) {
                try WebMReader(path: path)
            }
        }
    }

    /// A DocType of exactly the limit (16 MiB) in a 26-byte file: allowed in size, but the file
    /// does not hold it, which is known without reading (or allocating) it.
    @Test func aDocTypeLargerThanTheFileIsRefusedUnread() throws {
        var bytes = Self.docTypeBomb
        bytes.replaceSubrange(4..<12, with: [0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x07])  // 2^24 + 7
        bytes.replaceSubrange(14..<19, with: [0x08, 0x01, 0x00, 0x00, 0x00])  // 2^24
        let scratch = try ScratchDirectory("webm-sizes")
        let path = scratch.path("doctype-past-end.webm")
        try WebMFixtures.write(bytes, to: path)
        try Self.expectNoBigAllocation(limit: 8 << 20) {
            #expect(throws: WebMReaderError.notWebM("no WebM EBML header: the file ends at byte 26")) { try WebMReader(path: path) }
        }
    }

    /// The same header in a sparse file of 1 GiB: the file does hold the bytes, but no header
    /// element is that large.
    @Test func aDocTypeAboveTheLimitIsRefusedUnreadInALargeFile() throws {
        let scratch = try ScratchDirectory("webm-sizes")
        let path = scratch.path("sparse-doctype.webm")
        try WebMFixtures.write(Self.docTypeBomb, to: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: (1 << 30) + 64)
        try handle.close()
        try Self.expectNoBigAllocation {
            #expect(throws: WebMReaderError.corrupt("the DocType element at byte 12 declares 1073741824 bytes, more than the 16777216 the reader takes")) {
                try WebMReader(path: path)
            }
        }
    }

    /// A playable header, then a SimpleBlock whose frame declares 40 MiB (under the 64 MiB
    /// frame limit) with three bytes there.
    @Test func aFrameLargerThanTheFileIsRefusedUnread() throws {
        let header = Self.element([0x1A, 0x45, 0xDF, 0xA3], Self.element([0x42, 0x82], Array("webm".utf8)))
        let trackEntry = Self.element([0xAE], Self.element([0xD7], [1]) + Self.element([0x83], [2]) + Self.element([0x86], Array("A_OPUS".utf8)))
        let tracks = Self.element([0x16, 0x54, 0xAE, 0x6B], trackEntry)
        let frameSize: UInt64 = 40 << 20
        let block = Self.element([0xA3], size: 4 + frameSize, [0x81, 0x00, 0x00, 0x80, 0xFC, 0xFF, 0xFE])
        let cluster = [0x1F, 0x43, 0xB6, 0x75] + Self.unknownSize + Self.element([0xE7], [0]) + block
        let file = header + [0x18, 0x53, 0x80, 0x67] + Self.unknownSize + tracks + cluster
        let scratch = try ScratchDirectory("webm-sizes")
        let path = scratch.path("frame-bomb.webm")
        try WebMFixtures.write(file, to: path)
        let reader = try WebMReader(path: path)
        #expect(reader.tracks.map(\.codecID) == ["A_OPUS"])
        try Self.expectNoBigAllocation {
            #expect(throws: WebMReaderError.truncated("the file ends inside an element at byte \(file.count)")) { try reader.nextFrame() }
        }
    }

    /// The same with CodecPrivate declaring 20 MiB in a 20 MiB sparse file: over the limit.
    @Test func aCodecPrivateAboveTheLimitIsRefusedUnread() throws {
        let header = Self.element([0x1A, 0x45, 0xDF, 0xA3], Self.element([0x42, 0x82], Array("webm".utf8)))
        let privateSize: UInt64 = 20 << 20
        let codecPrivate = Self.element([0x63, 0xA2], size: privateSize, [])
        let trackEntry = Self.element([0xAE], size: UInt64(codecPrivate.count) + privateSize, codecPrivate)
        let tracks = Self.element([0x16, 0x54, 0xAE, 0x6B], size: UInt64(trackEntry.count) + privateSize, trackEntry)
        let file = header + [0x18, 0x53, 0x80, 0x67] + Self.unknownSize + tracks
        let scratch = try ScratchDirectory("webm-sizes")
        let path = scratch.path("codec-private.webm")
        try WebMFixtures.write(file, to: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(file.count) + privateSize)
        try handle.close()
        let position = header.count + 12 + 12 + 9  // Segment, Tracks and TrackEntry headers
        try Self.expectNoBigAllocation {
            #expect(throws: WebMReaderError.corrupt("the CodecPrivate element at byte \(position) declares 20971520 bytes, more than the 16777216 the reader takes")) {
                try WebMReader(path: path)
            }
        }
    }
}

private extension WebMReaderError {
    var isNotWebM: Bool {
        if case .notWebM = self { true } else { false }
    }
}
