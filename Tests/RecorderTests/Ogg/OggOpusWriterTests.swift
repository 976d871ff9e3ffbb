import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

@Suite struct OggOpusWriterTests {
    /// Reads the pages back by hand (RFC 3533 §6): "OggS", version, flags, granule LE64, …
    static func pages(_ bytes: [UInt8]) -> [(flags: UInt8, granule: Int64, body: [UInt8])] {
        var pages: [(UInt8, Int64, [UInt8])] = []
        var offset = 0
        while offset + 27 <= bytes.count, Array(bytes[offset..<(offset + 4)]) == Array("OggS".utf8) {
            let flags = bytes[offset + 5]
            var granule: Int64 = 0
            for index in (0..<8).reversed() { granule = granule << 8 | Int64(bytes[offset + 6 + index]) }
            let segments = Int(bytes[offset + 26])
            let lacing = bytes[(offset + 27)..<(offset + 27 + segments)]
            let bodyLength = lacing.reduce(0) { $0 + Int($1) }
            let bodyStart = offset + 27 + segments
            pages.append((flags, granule, Array(bytes[bodyStart..<(bodyStart + bodyLength)])))
            offset = bodyStart + bodyLength
        }
        return pages
    }

    @Test func headersThenAudioWithGranulesFromTheTOC() throws {
        let sink = MemoryByteSink()
        let writer = try OggOpusWriter(sink: sink, channels: 2, serial: 7)
        for _ in 0..<150 { try writer.write(packet: [0xFC, 0xFF, 0xFE]) }  // 150 × 20 ms
        try writer.write(packet: OpusPacket.emptyFrame(config: 31, stereo: true))
        try writer.close()
        try writer.close()
        let pages = Self.pages(sink.bytes)
        #expect(pages.count >= 4)
        #expect(pages[0].flags & 0x02 != 0)  // beginning of stream
        #expect(Array(pages[0].body.prefix(8)) == Array("OpusHead".utf8))
        #expect(pages[0].body[9] == 2)
        #expect(Array(pages[1].body.prefix(8)) == Array("OpusTags".utf8))
        #expect(pages.last!.flags & 0x04 != 0)  // end of stream
        #expect(pages.last!.granule == 151 * 960)
        #expect(writer.durationSamples == 151 * 960 - 312)
        // A page at least every second of audio, so a kill loses at most that.
        let audioGranules = pages.dropFirst(2).map(\.granule)
        #expect(zip(audioGranules, audioGranules.dropFirst()).allSatisfy { $1 - $0 <= 48_000 + 960 })
    }

    @Test func refusesPacketsWithoutADuration() throws {
        let writer = try OggOpusWriter(sink: MemoryByteSink())
        #expect(throws: OpusPacket.Error.empty) { try writer.write(packet: []) }
        #expect(writer.packetsWritten == 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")))
    func ffprobeReadsTheDuration() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ogg-\(UUID().uuidString).opus").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try OggOpusWriter(path: path, channels: 2)
        for _ in 0..<250 { try writer.write(packet: [0xFC, 0xFF, 0xFE]) }  // 5 s
        try writer.close()
        let output = try await runTool("/usr/bin/ffprobe", [
            "-v", "error", "-show_entries", "format=duration:stream=codec_name", "-of", "default=nw=1", path,
        ]).output
        #expect(output.contains("codec_name=opus"))
        let duration = output.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) }
        #expect(abs((duration ?? 0) - 4.9935) < 0.01, "\(output)")
    }
}
