import Agent
import BotKit

extension FuzzTarget {
    /// WebM/Matroska files through the libwebm shim (EBML header, Info, Tracks, clusters,
    /// SimpleBlocks, BlockGroups, lacing). Frames never exceed their limit.
    public static let webm = FuzzTarget(name: "webm", summary: "WebMReader (CWebMParser over libwebm): headers, tracks, every frame", maxInputLength: 16384) { bytes in
        guard let path = FuzzFile.write(bytes, for: "webm"), let reader = try? WebMReader(path: path) else { return }
        for track in reader.tracks { _ = track.codecPrivate.count }
        var frames = 0
        while let frame = try? reader.nextFrame(), frames < 10_000 {
            FuzzCheck.expect(frame.bytes.count <= WebMReader.maxFrameSize, "a frame of \(frame.bytes.count) bytes")
            frames += 1
        }
        reader.close()
    }

    /// IVF files (the VP8/VP9 container libvpx's tools write).
    public static let ivf = FuzzTarget(name: "ivf", summary: "IVFHeader(parsing:), IVFReader frames and keyframe flags", maxInputLength: 16384) { bytes in
        _ = try? IVFHeader(parsing: Array(bytes.prefix(IVFHeader.size)))
        guard let path = FuzzFile.write(bytes, for: "ivf"), let reader = try? IVFReader(path: path) else { return }
        var frames = 0
        while let frame = try? reader.nextFrame(), frames < 10_000 {
            FuzzCheck.expect(frame.bytes.count <= IVFReader.maxFrameSize, "a frame of \(frame.bytes.count) bytes")
            frames += 1
        }
    }

    /// Ogg Opus files (RFC 7845 over RFC 3533 pages through libogg), and the header packets and
    /// TOC bytes on their own.
    public static let oggOpus = FuzzTarget(name: "ogg-opus", summary: "OggOpusReader pages/granules, OpusHead, OpusTags, OpusPacket.sampleCount", maxInputLength: 16384) { bytes in
        let packet = Array(bytes)
        _ = try? OpusHead(parsing: packet)
        _ = try? OpusTags(parsing: packet)
        _ = try? OpusPacket.sampleCount(bytes)
        guard let path = FuzzFile.write(bytes, for: "ogg-opus"), let reader = try? OggOpusReader(path: path) else { return }
        var frames = 0
        while let frame = try? reader.nextFrame(), frames < 10_000 {
            FuzzCheck.expect(frame.bytes.count <= OggOpusReader.packetSizeLimit, "a packet of \(frame.bytes.count) bytes")
            frames += 1
        }
        _ = reader.durationNanoseconds
    }
}
