import Foundation
import TestSupport

/// WebM files for the reader and source tests, made by ffmpeg and mkvmerge, and what ffprobe
/// says is in them.
enum WebMFixtures {
    /// A VP8 + Opus WebM of the moving test pattern and a 440 Hz tone, `seconds` long, with a
    /// keyframe every second. `extra` goes before the output: `-live 1` makes a live-style file
    /// (Segment of unknown size), `-cluster_size_limit` more clusters.
    static func ffmpeg(_ path: String, seconds: Double = 3, size: String = "320x240", video: String = "libvpx",
                       audio: String = "libopus", extra: [String] = []) async throws {
        let arguments = ["-loglevel", "error", "-y",
                         "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25",
                         "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
                         "-t", "\(seconds)", "-c:v", video, "-g", "25", "-c:a", audio] + extra + ["-f", "webm", path]
        let status = try await runTool("/usr/bin/ffmpeg", arguments).status
        guard status == 0 else { throw FixtureError(description: "ffmpeg failed (\(status)) for \(path)") }
    }

    /// Remuxes `input` with mkvmerge, which writes BlockGroups (`no_simpleblocks`) and laces audio
    /// (`lacing_xiph` or `lacing_ebml`) when asked.
    static func mkvmerge(_ input: String, to output: String, engage: [String], webm: Bool = true) async throws {
        var arguments = ["-q", "-o", output]
        if webm { arguments.append("--webm") }
        for hack in engage { arguments += ["--engage", hack] }
        let result = try await runTool("/usr/bin/mkvmerge", arguments + [input])
        // mkvmerge exits 1 for warnings, 2 for errors.
        guard result.status <= 1 else { throw FixtureError(description: "mkvmerge failed (\(result.status)): \(result.output)") }
    }

    struct FixtureError: Error, CustomStringConvertible { var description: String }

    /// One packet as ffprobe demuxes it.
    struct Packet: Equatable {
        var kind: String  // "audio" or "video"
        var nanoseconds: Int64
        var size: Int
        /// Where the block body starts (track number, timecode, flags, frame).
        var position: Int
        var isKeyframe: Bool
    }

    /// `ffprobe -show_packets` of `path`, in file order.
    static func probe(_ path: String) async throws -> [Packet] {
        let streams = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=index,codec_type",
                                                       "-of", "csv=p=0", path]).output
        var kinds: [String: String] = [:]
        for line in streams.split(separator: "\n") {
            let fields = line.split(separator: ",").map(String.init)
            if fields.count == 2 { kinds[fields[0]] = fields[1] }
        }
        let output = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_packets", "-show_entries",
                                                      "packet=stream_index,pts_time,size,pos,flags", "-of", "csv=p=0", path]).output
        return output.split(separator: "\n").compactMap { line -> Packet? in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, let kind = kinds[fields[0]], let seconds = Decimal(string: fields[1]),
                  let size = Int(fields[2]), let position = Int(fields[3]) else { return nil }
            let nanoseconds = NSDecimalNumber(decimal: seconds * 1_000_000_000).int64Value
            return Packet(kind: kind, nanoseconds: nanoseconds, size: size, position: position, isKeyframe: fields[4].hasPrefix("K"))
        }
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    /// One EBML element found by ``elements(in:from:to:)``.
    struct Element {
        var id: UInt64  // with its marker bits, as written: 0x1F43B675 for a Cluster
        var offset: Int
        var sizeField: Range<Int>
        var body: Int
        var size: Int
    }

    /// The elements one after the other in `bytes[from..<to]`, stopping at anything unreadable.
    static func elements(in bytes: [UInt8], from: Int, to: Int) -> [Element] {
        func vintLength(at offset: Int) -> Int? {
            guard offset < bytes.count, bytes[offset] != 0 else { return nil }
            let length = bytes[offset].leadingZeroBitCount + 1
            return offset + length <= bytes.count ? length : nil
        }
        var found: [Element] = []
        var offset = from
        while offset < to, let idLength = vintLength(at: offset), let sizeLength = vintLength(at: offset + idLength) {
            let id = bytes[offset..<(offset + idLength)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let sizeStart = offset + idLength
            var size = UInt64(bytes[sizeStart]) & (0xFF >> sizeLength)
            for index in 1..<sizeLength { size = size << 8 | UInt64(bytes[sizeStart + index]) }
            let body = sizeStart + sizeLength
            found.append(Element(id: id, offset: offset, sizeField: sizeStart..<body, body: body, size: Int(clamping: size)))
            offset = body + Int(clamping: size)
        }
        return found
    }

    /// The Segment's children (Info, Tracks, Clusters...) of a file whose sizes are all known.
    static func segmentChildren(of bytes: [UInt8]) -> [Element] {
        let top = elements(in: bytes, from: 0, to: bytes.count)
        guard let segment = top.first(where: { $0.id == 0x1853_8067 }) else { return [] }
        return elements(in: bytes, from: segment.body, to: min(bytes.count, segment.body + segment.size))
    }

    /// Offsets of the SimpleBlock elements (their ID byte) of every cluster, in file order.
    static func simpleBlockOffsets(in bytes: [UInt8]) -> [Int] {
        segmentChildren(of: bytes).filter { $0.id == 0x1F43_B675 }.flatMap { cluster in
            elements(in: bytes, from: cluster.body, to: cluster.body + cluster.size).filter { $0.id == 0xA3 }.map(\.offset)
        }
    }

    /// `bytes` with every Cluster's size rewritten as "unknown" (all value bits set, same length),
    /// as a live encoder writes them.
    static func clustersOfUnknownSize(_ bytes: [UInt8]) -> (bytes: [UInt8], clusters: Int) {
        var patched = bytes
        let clusters = segmentChildren(of: bytes).filter { $0.id == 0x1F43_B675 }
        for cluster in clusters {
            let length = cluster.sizeField.count
            patched[cluster.sizeField.lowerBound] = UInt8(0xFF >> (length - 1))
            for index in cluster.sizeField.dropFirst() { patched[index] = 0xFF }
        }
        return (patched, clusters.count)
    }
}
