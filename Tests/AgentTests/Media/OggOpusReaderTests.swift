import Foundation
import TestSupport
import Testing

@testable import Agent
@testable import AgentMedia

@Suite(.offThePool) struct OggOpusReaderTests {


    /// A 2 s, 440 Hz mono tone encoded by ffmpeg's libopus (20 ms frames).
    private func makeTone(_ path: String) async throws {
        let result = try await runTool("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=2",
                                                 "-c:a", "libopus", path])
        try #require(result.status == 0)
    }

    @Test func ffmpegToneReadsBackWithGranuleTimesAndDecodesTo440Hz() async throws {
        let scratch = try ScratchDirectory("oggopus")
        let path = scratch.path("tone.opus")
        try await makeTone(path)
        let probed = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                                  "-of", "default=nw=1:nk=1", path])
        let expectedPackets = Int(probed.output.trimmingCharacters(in: .whitespacesAndNewlines))

        let reader = try OggOpusReader(path: path)
        #expect(reader.head.channels == 1)
        #expect(reader.head.mappingFamily == 0)
        // libopus's encoder delay at 48 kHz: 6.5 ms.
        #expect(reader.head.preSkip == 312)
        #expect(reader.tags.vendor.contains("libopus") || reader.tags.vendor.contains("Lavf"))
        let frames = try reader.readAll()
        #expect(expectedPackets != nil && frames.count == expectedPackets)
        #expect(reader.packetsRead == frames.count)
        #expect(reader.gaps == 0)
        let duration = try #require(reader.durationNanoseconds)
        print("ogg opus: \(frames.count) packets, pre-skip \(reader.head.preSkip), duration \(Double(duration) / 1e6) ms")
        #expect(abs(duration - 2_000_000_000) <= 20_000_000)

        // Times from granules: the first packet starts pre-skip before zero, then every 20 ms.
        #expect(frames.first?.timestampNanoseconds == -Int64(312) * 1_000_000_000 / 48_000)
        let steps = zip(frames.dropFirst(), frames).map { $0.timestampNanoseconds - $1.timestampNanoseconds }
        #expect(steps.allSatisfy { $0 == 20_000_000 }, "\(Set(steps))")
        #expect(frames.allSatisfy { $0.codec == .opus && $0.isKeyframe })

        // The packets are real Opus: decoded, the middle second is a clean 440 Hz tone.
        let decoder = try OpusDecoder(channels: 1)
        var pcm: [Int16] = []
        for frame in frames { pcm += try decoder.decode(frame.bytes) }
        let audio = Array(pcm.dropFirst(reader.head.preSkip))
        #expect(abs(audio.count - 96_000) <= 960)
        let middle = audio[24_000..<72_000]
        let tone = goertzelPower(middle, frequency: 440)
        let off = goertzelPower(middle, frequency: 1_000)
        print("ogg opus: 440 Hz vs 1 kHz power ratio \(tone / max(off, 1))")
        #expect(tone > off * 1_000)
    }

    /// Packet lengths come from each TOC byte and the end is trimmed by the last granule, so any
    /// frame size and a length that is no multiple of it still give the file's own times.
    @Test(arguments: [(10, 1), (60, 2), (20, 2)])
    func frameSizesChannelsAndEndTrimming(frameMilliseconds: Int, channels: Int) async throws {
        let scratch = try ScratchDirectory("oggopus")
        let path = scratch.path("tone.opus")
        let result = try await runTool("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=1.234",
                                                 "-ac", "\(channels)", "-c:a", "libopus",
                                                 "-frame_duration", "\(frameMilliseconds)", path])
        try #require(result.status == 0)
        let reader = try OggOpusReader(path: path)
        #expect(reader.head.channels == channels)
        let frames = try reader.readAll()
        let step = Int64(frameMilliseconds) * 1_000_000
        let steps = Set(zip(frames.dropFirst(), frames).map { $0.timestampNanoseconds - $1.timestampNanoseconds })
        #expect(steps == [step])
        #expect(frames.first?.timestampNanoseconds == -Int64(reader.head.preSkip) * 1_000_000_000 / 48_000)
        let duration = try #require(reader.durationNanoseconds)
        #expect(abs(duration - 1_234_000_000) <= 1_000_000, "\(duration)")
        // The packets add up to more than the granule says: the last one is trimmed, not moved.
        let packetsEnd = (frames.last?.timestampNanoseconds ?? 0) + step
        #expect(packetsEnd >= duration)
    }

    /// A file cut in the middle of its audio ends early without an error: libogg drops the
    /// partial page, and every packet before it keeps its time.
    @Test func fileCutInsideTheAudioEndsAtTheLastWholePage() async throws {
        let scratch = try ScratchDirectory("oggopus")
        let path = scratch.path("tone.opus")
        try await makeTone(path)
        let whole = try OggOpusReader(path: path).readAll()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = scratch.path("cut.opus")
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        let partial = try OggOpusReader(path: cut).readAll()
        #expect(partial.count > whole.count / 3 && partial.count < whole.count)
        #expect(Array(whole.prefix(partial.count)) == partial)
    }

    @Test func secondReadOfTheSameFileGivesTheSamePackets() async throws {
        let scratch = try ScratchDirectory("oggopus")
        let path = scratch.path("tone.opus")
        try await makeTone(path)
        let first = try OggOpusReader(path: path).readAll()
        let second = try OggOpusReader(path: path).readAll()
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    @Test func garbageAndNonOpusFilesThrowTypedErrors() async throws {
        let scratch = try ScratchDirectory("oggopus")
        func file(_ name: String, _ contents: [UInt8]) -> String {
            let path = scratch.path(name)
            _ = FileManager.default.createFile(atPath: path, contents: Data(contents))
            return path
        }
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let garbagePath = file("garbage.opus", garbage)
        #expect(throws: OggOpusReaderError.notOgg(path: garbagePath)) { try OggOpusReader(path: garbagePath) }
        let emptyPath = file("empty.opus", [])
        #expect(throws: OggOpusReaderError.notOgg(path: emptyPath)) { try OggOpusReader(path: emptyPath) }

        // Ogg Vorbis is Ogg but not Opus.
        let vorbisPath = scratch.path("tone.ogg")
        let vorbis = try await runTool("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=1",
                                                 "-c:a", "libvorbis", vorbisPath])
        if vorbis.status == 0 {
            #expect(throws: OggOpusReaderError.notOpus(path: vorbisPath)) { try OggOpusReader(path: vorbisPath) }
        }

        // A real file cut inside its first pages: the headers are incomplete.
        let tonePath = scratch.path("tone.opus")
        try await makeTone(tonePath)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tonePath)))
        let cutPath = file("cut.opus", Array(bytes[0..<60]))
        #expect(throws: OggOpusReaderError.self) { try OggOpusReader(path: cutPath) }
    }

    /// Bytes this process has read through read(2) and friends (`rchar` in /proc/self/io).
    private func bytesReadByProcess() throws -> Int {
        let io = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
        let line = try #require(io.split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    /// The bug: a large non-Ogg file was read to its end looking for a first page (20 GB took
    /// minutes). Now the first page must start within the first 64 KiB.
    @Test func aNonOggFileIsRefusedAfterTheFirstPageSearchLimit() throws {
        let scratch = try ScratchDirectory("oggopus")
        let path = scratch.path("sparse.opus")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 256 << 20)  // 256 MiB of zeros, sparse
        try handle.close()
        let before = try bytesReadByProcess()
        #expect(throws: OggOpusReaderError.notOgg(path: path)) { try OggOpusReader(path: path) }
        let read = try bytesReadByProcess() - before
        #expect(read < 4 << 20, "read \(read >> 20) MiB of a file that is not Ogg")
    }

    @Test func junkBeforeTheFirstPageIsToleratedUpToTheLimit() async throws {
        let scratch = try ScratchDirectory("oggopus")
        let tonePath = scratch.path("tone.opus")
        try await makeTone(tonePath)
        let tone = try Data(contentsOf: URL(fileURLWithPath: tonePath))
        let whole = try OggOpusReader(path: tonePath).readAll()
        let near = scratch.path("junk-32k.opus")
        try (Data(repeating: 0x2A, count: 32 << 10) + tone).write(to: URL(fileURLWithPath: near))
        #expect(try OggOpusReader(path: near).readAll() == whole)
        let far = scratch.path("junk-80k.opus")
        try (Data(repeating: 0x2A, count: 80 << 10) + tone).write(to: URL(fileURLWithPath: far))
        #expect(throws: OggOpusReaderError.notOgg(path: far)) { try OggOpusReader(path: far) }
    }

    /// Ogg pages by hand (RFC 3533 §6), for streams no encoder writes.
    private struct OggPages {
        var serial: UInt32 = 0x5EED
        var sequence: UInt32 = 0
        var bytes: [UInt8] = []

        /// One page of `segments` (each 0-255 bytes; 255 means the packet goes on).
        mutating func page(_ segments: [[UInt8]], flags: UInt8 = 0, granule: Int64 = 0) {
            var page = Array("OggS".utf8) + [0, flags]
            page += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: granule) >> (8 * $0)) }
            page += (0..<4).map { UInt8(truncatingIfNeeded: serial >> (8 * $0)) }
            page += (0..<4).map { UInt8(truncatingIfNeeded: sequence >> (8 * $0)) }
            page += [0, 0, 0, 0, UInt8(segments.count)] + segments.map { UInt8($0.count) }
            page += segments.flatMap { $0 }
            let crc = Self.crc(page)
            page.replaceSubrange(22..<26, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
            bytes += page
            sequence += 1
        }

        /// The Ogg CRC: polynomial 0x04C11DB7, MSB first, no reflection, initial 0.
        static func crc(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0
            for byte in bytes {
                crc ^= UInt32(byte) << 24
                for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
            }
            return crc
        }

        static let head: [UInt8] = Array("OpusHead".utf8) + [1, 1, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
        static let tags: [UInt8] = Array("OpusTags".utf8) + [3, 0, 0, 0] + Array("abc".utf8) + [0, 0, 0, 0]
    }

    @Test func headersThatDoNotEndAreRefusedAtTheHeaderLimit() throws {
        var pages = OggPages()
        pages.page([OggPages.head], flags: 0x02)
        // An OpusTags packet that runs on, page after page: 17 MiB of 255-byte segments.
        let runOn = [UInt8](repeating: 0x41, count: 255)
        pages.page([Array("OpusTags".utf8) + runOn.dropLast(8)] + Array(repeating: runOn, count: 254))
        for _ in 0..<(17 << 20) / (255 * 255) { pages.page(Array(repeating: runOn, count: 255), flags: 0x01) }
        let scratch = try ScratchDirectory("oggopus")
        let path = scratch.path("endless-tags.opus")
        try Data(pages.bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: OggOpusReaderError.headersTooLarge(path: path, limit: 16 << 20)) { try OggOpusReader(path: path) }
    }

    /// An audio packet continued over 2 MiB of pages: libogg would gather it all in memory.
    @Test func anAudioPacketThatDoesNotEndIsRefusedAtThePacketLimit() throws {
        var pages = OggPages()
        pages.page([OggPages.head], flags: 0x02)
        pages.page([OggPages.tags])
        pages.page([[0xFC, 0xFF, 0xFE]], granule: 960)  // one 20 ms packet
        let runOn = [UInt8](repeating: 0xFC, count: 255)
        pages.page(Array(repeating: runOn, count: 255), granule: -1)
        for _ in 0..<(2 << 20) / (255 * 255) { pages.page(Array(repeating: runOn, count: 255), flags: 0x01, granule: -1) }
        let scratch = try ScratchDirectory("oggopus")
        let path = scratch.path("endless-packet.opus")
        try Data(pages.bytes).write(to: URL(fileURLWithPath: path))
        let reader = try OggOpusReader(path: path)
        #expect(reader.tags.vendor == "abc")
        #expect(try reader.nextFrame()?.bytes == [0xFC, 0xFF, 0xFE])
        let error = #expect(throws: OggOpusReaderError.self) { try reader.readAll() }
        guard case .packetTooLarge(index: 1, let bytes) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(bytes > OggOpusReader.packetSizeLimit && bytes < OggOpusReader.packetSizeLimit + 65_536)
    }

    @Test func headerPacketsParseFieldByField() throws {
        let head: [UInt8] = Array("OpusHead".utf8) + [
            0x01,  // version 1
            0x02,  // 2 channels
            0x38, 0x01,  // pre-skip 312
            0x80, 0xBB, 0x00, 0x00,  // input rate 48000
            0x00, 0x01,  // output gain 256 (1 dB in Q7.8)
            0x00,  // mapping family 0
        ]
        let parsed = try OpusHead(parsing: head)
        #expect(parsed.channels == 2 && parsed.preSkip == 312 && parsed.inputSampleRate == 48_000)
        #expect(parsed.outputGain == 256 && parsed.mappingFamily == 0)
        #expect(throws: OggOpusReaderError.badHead("18 bytes, need 19")) { try OpusHead(parsing: Array(head.dropLast())) }
        var threeChannelsFamilyZero = head
        threeChannelsFamilyZero[9] = 3
        #expect(throws: OggOpusReaderError.badHead("mapping family 0 with 3 channels")) {
            try OpusHead(parsing: threeChannelsFamilyZero)
        }

        let tags: [UInt8] = Array("OpusTags".utf8)
            + [0x03, 0x00, 0x00, 0x00] + Array("abc".utf8)  // vendor "abc"
            + [0x01, 0x00, 0x00, 0x00]  // one comment
            + [0x05, 0x00, 0x00, 0x00] + Array("A=bcd".utf8)
        let parsedTags = try OpusTags(parsing: tags)
        #expect(parsedTags.vendor == "abc" && parsedTags.comments == ["A=bcd"])
        #expect(throws: OggOpusReaderError.self) { try OpusTags(parsing: Array(tags.dropLast())) }
        var hugeCount = tags
        hugeCount[15..<19] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: OggOpusReaderError.self) { try OpusTags(parsing: hugeCount) }
    }
}
