import Agent
import Foundation
import TestSupport
import Testing

@testable import Recorder

/// H.264 + Opus into Matroska with ``WebMWriter``: real libx264 frames, made by ffmpeg in the
/// test's scratch directory and split into access units as the RTP depacketizer hands them over
/// (Annex B, one access unit per frame), checked by ffprobe, ffmpeg and mkvinfo.
@Suite(.offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mkvinfo")))
struct MatroskaH264Tests {
    static let frameRate = 30
    static let seconds = 3

    /// `seconds` of libx264 Constrained Baseline (no B-frames, as WebRTC sends) at 638x358,
    /// which the SPS crops from 640x368, a keyframe each second. libx264 writes SPS and PPS
    /// before the first IDR only, so later IDRs need the writer to add them.
    static func encode(in scratch: ScratchDirectory, size: String = "638x358", name: String = "source.h264") async throws
        -> (stream: String, accessUnits: [[UInt8]])
    {
        let stream = scratch.path(name)
        let made = try await runTool("/usr/bin/ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(frameRate)", "-t", "\(seconds)",
            "-c:v", "libx264", "-profile:v", "baseline", "-pix_fmt", "yuv420p", "-g", "\(frameRate)", "-f", "h264", stream,
        ], includeStderr: true)
        try #require(made.status == 0, "\(made.output)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stream)))
        return (stream, accessUnits(of: bytes))
    }

    /// Cuts a byte stream into access units the simple way that fits libx264's output (one
    /// slice per picture): each ends with its picture's one slice (§7.4.1.2.3 orders the
    /// non-VCL units before it).
    static func accessUnits(of stream: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var current: [UInt8] = []
        for range in AnnexBScanner.nalUnits(in: stream) {
            current += AnnexBScanner.startCode + stream[range]
            if (1...5).contains(H264NALUnitType.bits(of: stream[range.lowerBound])) {
                units.append(current)
                current = []
            }
        }
        return units
    }

    /// Muxes the access units at 30 fps with 20 ms Opus packets of a tone, in time order, as
    /// the recorder does: the first access unit's SPS and PPS make the track, and the converter
    /// keeps the latest ones for IDRs that come without. Returns the writer, still open, and how
    /// many access units changed the parameter sets.
    static func write(_ accessUnits: [[UInt8]], to sink: ByteSink) throws -> (writer: WebMWriter, parameterSetChanges: Int) {
        var converter = H264SampleConverter()
        let first = try converter.convert(accessUnits[0])
        let record = try #require(converter.parameterSets)
        let writer = try WebMWriter(sink: sink, tracks: [.opus(number: 1), .avc(number: 2, configuration: record)])
        let encoder = try OpusEncoder(configuration: .init(channels: 1, application: .audio, bitrate: 64_000))
        var audioMs: Int64 = 0
        var changes = 0
        for (index, bytes) in accessUnits.enumerated() {
            let videoMs = Int64(index) * 1000 / Int64(frameRate)
            while audioMs <= videoMs {
                let packet = try encoder.encode(tone(frequency: 440, count: 960, start: Int(audioMs) * 48))
                try writer.write(track: 1, timestampMs: audioMs, keyframe: true, frame: packet)
                audioMs += 20
            }
            let sample = index == 0 ? first : try converter.convert(bytes)
            if sample.parameterSetsChanged { changes += 1 }
            try writer.write(track: 2, timestampMs: videoMs, keyframe: sample.isIDR, frame: sample.bytes)
        }
        return (writer, changes)
    }

    static func probe(_ path: String, _ entries: String) async throws -> [String] {
        let result = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", entries, "-of", "csv=p=0", path])
        return result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The decoded pictures' hashes, in order (ffmpeg's framemd5, last column).
    static func pictureHashes(_ path: String) async throws -> [String] {
        let result = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
        return result.output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func ffprobeFFmpegAndMkvinfoReadTheFile() async throws {
        let scratch = try ScratchDirectory("mkv-h264")
        let (stream, accessUnits) = try await Self.encode(in: scratch)
        #expect(accessUnits.count == Self.frameRate * Self.seconds)
        let path = scratch.path("alice.mkv")
        let writer = try Self.write(accessUnits, to: FileByteSink(path: path)).writer
        try writer.close()
        #expect(writer.docType == .matroska)

        #expect(try await Self.probe(path, "stream=codec_name,width,height") == ["opus", "h264,638,358"])
        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"], includeStderr: true)
        #expect(decode.status == 0)
        #expect(decode.output.isEmpty, "\(decode.output)")
        let duration = try #require(try await Self.probe(path, "format=duration").first.flatMap(Double.init))
        #expect(abs(duration - Double(Self.seconds)) < 0.1, "\(duration)")

        // The same pictures as ffmpeg decodes from the encoder's own stream.
        let recorded = try await Self.pictureHashes(path)
        let source = try await Self.pictureHashes(stream)
        #expect(recorded.count == accessUnits.count)
        #expect(recorded == source)

        let info = try await runTool("/usr/bin/mkvinfo", [path], includeStderr: true)
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("Document type: matroska"))
        #expect(info.output.contains("Codec ID: V_MPEG4/ISO/AVC"))
        #expect(info.output.contains("Codec ID: A_OPUS"))
        #expect(info.output.contains("Pixel width: 638") && info.output.contains("Pixel height: 358"))
        #expect(info.output.contains("Codec's private data"), "\(info.output.prefix(3000))")
    }

    /// The access units with the SPS and PPS taken out of every IDR but the first: a sender
    /// that sends them once (libx264 repeats them).
    static func parameterSetsOnce(_ accessUnits: [[UInt8]]) -> [[UInt8]] {
        accessUnits.enumerated().map { index, unit in
            guard index > 0 else { return unit }
            return AnnexBScanner.nalUnitBytes(in: unit).filter { ![7, 8].contains(H264NALUnitType.bits(of: $0.first ?? 0)) }
                .flatMap { AnnexBScanner.startCode + $0 }
        }
    }

    /// The nal_unit_types of track `id` (mkvextract counts from 0) as mkvextract writes it out
    /// (Annex B, CodecPrivate's parameter sets first).
    static func extractedTypes(_ path: String, track id: Int, in scratch: ScratchDirectory) async throws -> [UInt8] {
        let out = scratch.path("extracted.h264")
        let extract = try await runTool("/usr/bin/mkvextract", [path, "tracks", "\(id):\(out)"], includeStderr: true)
        try #require(extract.status == 0, "\(extract.output)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        return AnnexBScanner.nalUnits(in: bytes).map { H264NALUnitType.bits(of: bytes[$0.lowerBound]) }
    }

    /// An IDR that came without SPS and PPS gets the record's in front, so each keyframe
    /// decodes on its own (a cut or remuxed file, a player that drops CodecPrivate); what
    /// mkvextract takes out shows them before every IDR, and only there.
    @Test func idrsWithoutParameterSetsGetThem() async throws {
        let scratch = try ScratchDirectory("mkv-h264-sets")
        let (_, encoded) = try await Self.encode(in: scratch)
        let accessUnits = Self.parameterSetsOnce(encoded)
        let idrs = try accessUnits.map { try H264AccessUnit(annexB: $0) }.filter(\.isIDR)
        #expect(idrs.count == Self.seconds)
        #expect(idrs.dropFirst().allSatisfy { $0.sequenceParameterSet == nil && $0.pictureParameterSets.isEmpty })

        let path = scratch.path("alice.mkv")
        try Self.write(accessUnits, to: FileByteSink(path: path)).writer.close()
        let types = try await Self.extractedTypes(path, track: 1, in: scratch)
        // Before each IDR (5): SPS (7), PPS (8); the first also has libx264's SEI (6).
        let idrIndices = types.indices.filter { types[$0] == 5 }
        #expect(idrIndices.count == Self.seconds, "\(types)")
        for index in idrIndices.dropFirst() {
            #expect(index >= 2 && Array(types[(index - 2)..<index]) == [7, 8], "\(types)")
        }
        #expect(types.filter { $0 == 7 }.count <= Self.seconds + 1, "\(types)")

        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-ss", "2", "-i", path, "-map", "0:v", "-f", "null", "-"],
                                       includeStderr: true)
        #expect(decode.status == 0)
        #expect(decode.output.isEmpty, "\(decode.output)")
    }

    /// Control for the test above: without the insertion, mkvextract's stream has the SPS only
    /// where the sender put it (and where mkvextract puts CodecPrivate's).
    @Test func withoutInsertionLaterIDRsHaveNoSPS() async throws {
        let scratch = try ScratchDirectory("mkv-h264-bare")
        let (_, encoded) = try await Self.encode(in: scratch)
        let accessUnits = Self.parameterSetsOnce(encoded)
        let first = try H264AccessUnit(annexB: accessUnits[0])
        let record = try #require(try first.configurationRecord())
        let path = scratch.path("bare.mkv")
        let writer = try WebMWriter(sink: FileByteSink(path: path), tracks: [.avc(number: 1, configuration: record)])
        for (index, bytes) in accessUnits.enumerated() {
            let unit = try H264AccessUnit(annexB: bytes)
            try writer.write(track: 1, timestampMs: Int64(index) * 1000 / Int64(Self.frameRate), keyframe: unit.isIDR, frame: unit.sample())
        }
        try writer.close()
        let types = try await Self.extractedTypes(path, track: 0, in: scratch)
        let idrIndices = types.indices.filter { types[$0] == 5 }
        #expect(idrIndices.count == Self.seconds)
        for index in idrIndices.dropFirst() { #expect(types[index - 1] == 1, "\(types)") }
    }

    /// A file cut in the middle of a cluster, as a killed process or a full disk leaves it:
    /// every frame before the cut still decodes.
    @Test func fileCutMidClusterStillDecodes() async throws {
        let scratch = try ScratchDirectory("mkv-h264-cut")
        let (_, accessUnits) = try await Self.encode(in: scratch)
        let sink = MemoryByteSink()
        try Self.write(accessUnits, to: sink).writer.close()
        let bytes = sink.bytes
        let clusters = bytes.ranges(of: EBML.id(MatroskaID.cluster)).map(\.lowerBound)
        try #require(clusters.count >= 4, "\(clusters.count) clusters")
        // Halfway through the third cluster.
        let cut = (clusters[2] + clusters[3]) / 2
        let path = scratch.path("cut.mkv")
        try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: path))

        #expect(try await Self.probe(path, "stream=codec_name,width,height") == ["opus", "h264,638,358"])
        let hashes = try await Self.pictureHashes(path)
        let full = try await Self.pictureHashes(scratch.path("source.h264"))
        // The first two clusters hold at least 0.5 s of video; the cut one adds what is whole.
        #expect(hashes.count >= Self.frameRate / 2 && hashes.count < accessUnits.count, "\(hashes.count) pictures")
        #expect(hashes == Array(full.prefix(hashes.count)))
        let info = try await runTool("/usr/bin/mkvinfo", [path], includeStderr: true)
        #expect(info.output.contains("Codec ID: V_MPEG4/ISO/AVC"), "\(info.output.prefix(2000))")
    }

    /// A sender that changes its size sends a new SPS and PPS with an IDR, here once (later
    /// IDRs come bare). The file keeps the first ones as CodecPrivate and the new ones in band,
    /// before every IDR of the new size: ffmpeg follows them, and every picture of both sizes
    /// decodes, without a new file.
    @Test func sizeChangeMidStreamDecodesInOneFile() async throws {
        let scratch = try ScratchDirectory("mkv-h264-resize")
        let (smallStream, small) = try await Self.encode(in: scratch, size: "320x240", name: "small.h264")
        let (largeStream, large) = try await Self.encode(in: scratch, size: "638x358", name: "large.h264")
        let path = scratch.path("resized.mkv")
        let written = try Self.write(Self.parameterSetsOnce(small) + Self.parameterSetsOnce(large), to: FileByteSink(path: path))
        try written.writer.close()
        #expect(written.parameterSetChanges == 1)

        #expect(try await Self.probe(path, "stream=codec_name,width,height") == ["opus", "h264,320,240"])
        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"], includeStderr: true)
        #expect(decode.status == 0)
        #expect(decode.output.isEmpty, "\(decode.output)")
        let hashes = try await Self.pictureHashes(path)
        let expected = try await Self.pictureHashes(smallStream) + Self.pictureHashes(largeStream)
        // ffmpeg scales to the first size for framemd5's one stream: compare the count, and
        // the first size's pictures, which come out as they are.
        #expect(hashes.count == small.count + large.count)
        #expect(Array(hashes.prefix(small.count)) == Array(expected.prefix(small.count)))
        let sizes = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=width,height",
                                                          "-of", "csv=p=0", path])
        // (ffprobe ends some rows with a comma of an empty side-data column)
        let distinct = Set(sizes.output.split(separator: "\n").map { String($0.prefix { $0.isNumber || $0 == "," }).trimmingCharacters(in: [","]) })
        #expect(distinct == ["320,240", "638,358"], "\(distinct)")
    }
}
