import Foundation
import TestSupport
import Testing

@testable import Recorder

@Suite(.offThePool) struct WebMWriterTests {
    /// A fake VP8 keyframe header for 320x240 (frame tag, start code, size) plus filler.
    static func fakeVP8(keyframe: Bool, size: Int = 200) -> [UInt8] {
        var frame: [UInt8] = keyframe ? [0x50, 0x42, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x01, 0xF0, 0x00] : [0x31, 0x02, 0x00]
        frame += [UInt8](repeating: 0x11, count: size)
        return frame
    }

    static func writeSample(to sink: ByteSink, seconds: Int = 3) throws -> WebMWriter {
        let writer = try WebMWriter(sink: sink, tracks: [.opus(number: 1), .video(number: 2, width: 320, height: 240)])
        var audioTime: Int64 = 0
        for videoTime in stride(from: Int64(0), to: Int64(seconds * 1000), by: 40) {
            while audioTime <= videoTime {
                try writer.write(track: 1, timestampMs: audioTime, keyframe: true, frame: [0xFC, 0xFF, 0xFE])
                audioTime += 20
            }
            let keyframe = videoTime % 2000 == 0
            try writer.write(track: 2, timestampMs: videoTime, keyframe: keyframe, frame: fakeVP8(keyframe: keyframe))
        }
        return writer
    }

    @Test func finishedFileHasSizesDurationAndCues() throws {
        let sink = MemoryByteSink()
        let writer = try Self.writeSample(to: sink)
        try writer.close()
        try writer.close()  // idempotent
        #expect(sink.closed)
        let bytes = sink.bytes
        #expect(Array(bytes.prefix(4)) == [0x1A, 0x45, 0xDF, 0xA3])
        // Segment size was patched from "unknown" to the real size.
        let segment = try #require(bytes.firstRange(of: [0x18, 0x53, 0x80, 0x67]))
        let sizeField = Array(bytes[segment.upperBound..<(segment.upperBound + 8)])
        #expect(sizeField != EBML.unknownSize)
        let declared = sizeField.dropFirst().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(Int(declared) == bytes.count - segment.upperBound - 8)
        #expect(bytes.firstRange(of: EBML.id(MatroskaID.cues)) != nil)
        #expect(bytes.firstRange(of: EBML.id(MatroskaID.seekHead)) != nil)
        #expect(writer.durationMs >= 2960)
    }

    @Test func clustersStayWithinASecond() throws {
        let sink = MemoryByteSink()
        let writer = try Self.writeSample(to: sink, seconds: 5)
        try writer.close()
        let clusterCount = sink.bytes.ranges(of: EBML.id(MatroskaID.cluster)).count
        #expect(clusterCount >= 5)
    }

    @Test func writeAfterCloseIsAnError() throws {
        let writer = try WebMWriter(sink: MemoryByteSink(), tracks: [.opus(number: 1)])
        try writer.close()
        #expect(throws: SinkError.self) { try writer.write(track: 1, timestampMs: 0, keyframe: true, frame: [1]) }
    }

    /// mkvinfo (mkvtoolnix) is an independent reader: a finished file and a file cut off as if
    /// the process had been killed must both parse.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mkvinfo")))
    func mkvinfoReadsFinishedAndKilledFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let finished = directory.appendingPathComponent("finished.webm").path
        let writer = try Self.writeSample(to: FileByteSink(path: finished))
        try writer.close()
        let info = try await runTool("/usr/bin/mkvinfo", [finished], includeStderr: true)
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("Codec ID: A_OPUS"))
        #expect(info.output.contains("Codec ID: V_VP8"))
        #expect(info.output.contains("Pixel width: 320"))
        #expect(info.output.contains("Duration:"))

        // "Killed": the writer never closes; what is on disk is the header plus closed clusters.
        let killed = directory.appendingPathComponent("killed.webm").path
        let sink = try FileByteSink(path: killed)
        let open = try Self.writeSample(to: sink)
        #expect(open.framesWritten > 0)
        let killedInfo = try await runTool("/usr/bin/mkvinfo", [killed], includeStderr: true)
        #expect(killedInfo.status == 0, "\(killedInfo.output)")
        #expect(killedInfo.output.contains("Cluster"))
        // The header already says how long the closed clusters last.
        #expect(killedInfo.output.contains("Duration: 00:00:02"), "\(killedInfo.output.prefix(2000))")
        try sink.close()
    }

    /// The Cues, as mkvinfo reads them: one per cluster that starts with a video keyframe, each
    /// with its time, the video track and the position of a cluster that starts at that time.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mkvinfo")))
    func cuesPointAtTheKeyframeClusters() async throws {
        let scratch = try ScratchDirectory("webm-cues")
        let path = scratch.path("cues.webm")
        let writer = try Self.writeSample(to: FileByteSink(path: path), seconds: 7)
        try writer.close()

        let info = try await runTool("/usr/bin/mkvinfo", ["-a", "-P", path], includeStderr: true)
        #expect(info.status == 0, "\(info.output)")
        let lines = info.output.split(separator: "\n").map(String.init)
        func number(after marker: String, in line: String) -> Int64? {
            guard let range = line.range(of: marker) else { return nil }
            return Int64(line[range.upperBound...].prefix { $0.isNumber })
        }
        func milliseconds(_ line: String) -> Int64? {
            // "…: 00:00:02.000000000 at 123"
            guard let colon = line.range(of: ": ") else { return nil }
            let parts = line[colon.upperBound...].prefix { $0 != " " }.split(separator: ":")
            guard parts.count == 3, let h = Int64(parts[0]), let m = Int64(parts[1]), let s = Double(parts[2]) else { return nil }
            return (h * 3600 + m * 60) * 1000 + Int64((s * 1000).rounded())
        }
        let segmentAt = try #require(lines.first { $0.contains("+ Segment: size") }.flatMap { number(after: " at ", in: $0) })
        let dataStart = segmentAt + 4 + 8  // Segment id, then an 8-byte size
        var clusters: [Int64: Int64] = [:]  // position from the segment's data → timestamp
        var cues: [(time: Int64, track: Int64, position: Int64)] = []
        for (index, line) in lines.enumerated() {
            if line.contains("+ Cluster at "), let at = number(after: "Cluster at ", in: line), index + 1 < lines.count {
                clusters[at - dataStart] = milliseconds(lines[index + 1])
            }
            if line.contains("+ Cue time:"), let time = milliseconds(line), index + 3 < lines.count,
                let track = number(after: "Cue track: ", in: lines[index + 2]),
                let position = number(after: "Cue cluster position: ", in: lines[index + 3])
            {
                cues.append((time, track, position))
            }
        }
        #expect(cues.map(\.time) == [0, 2_000, 4_000, 6_000], "\(cues)")
        #expect(cues.allSatisfy { $0.track == 2 }, "\(cues)")
        for cue in cues {
            #expect(clusters[cue.position] == cue.time, "cue \(cue) points at no cluster of that time: \(clusters.sorted { $0.key < $1.key })")
        }
    }

}
