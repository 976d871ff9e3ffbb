import Agent

/// The one ``WebMReader`` behind a ``WebMSource``'s audio and video sources. Each source asks for
/// the next frame of its own track; frames of the other selected track read on the way are kept
/// in that track's queue until its source asks. Frames of tracks nobody plays are dropped.
///
/// The queues are bounded by ``WebMSource/QueueLimit``: a queue only grows by how far the file's
/// muxing runs one track ahead of the other (a fraction of a second to a few seconds in files
/// from ffmpeg or mkvmerge), so hitting the bound means the file cannot be streamed in time
/// order, and ``WebMReaderError/interleavingTooLoose(track:queuedFrames:queuedBytes:)`` is thrown
/// rather than letting memory grow with the file.
///
/// H.264 blocks (V_MPEG4/ISO/AVC) hold length-prefixed NAL units, with the SPS and PPS in the
/// track's CodecPrivate (ISO/IEC 14496-15 §5.3); ``SendStream`` takes Annex B access units. Each
/// block goes through the track's ``H264SampleConverter``, which gives it start codes and puts
/// the parameter sets in front of every IDR that lacks them, so a receiver can start at any
/// keyframe; a keyframe is an access unit with an IDR slice. The blocks' times are their
/// presentation times, so a file with B-frames (which WebRTC does not carry) has its times
/// going back and forth; ``FramePlaylist`` clamps them.
final class WebMDemuxer {
    let path: String
    let audioTrack: WebMTrackInfo?
    let videoTrack: WebMTrackInfo?
    private let limit: WebMSource.QueueLimit
    private var reader: WebMReader
    private var queues: [UInt64: FrameQueue] = [:]
    /// Time since the block's start of the lace about to be read, per track (laced Opus blocks).
    private var laceOffsets: [UInt64: Int64] = [:]
    /// Frames taken from the reader since it was (re)opened, so a second rewind in a row is free.
    private var framesSinceOpen = 0
    /// The H.264 track's converter as its CodecPrivate made it, and as it is now.
    private let initialH264Converter: H264SampleConverter?
    private var h264Converter: H264SampleConverter?

    init(path: String, kinds: Set<MediaKind>, limit: WebMSource.QueueLimit) throws(WebMReaderError) {
        self.path = path
        self.limit = limit
        reader = try WebMReader(path: path)
        audioTrack = kinds.contains(.audio) ? try Self.pick(.audio, from: reader.tracks) : nil
        videoTrack = kinds.contains(.video) ? try Self.pick(.video, from: reader.tracks) : nil
        guard audioTrack != nil || videoTrack != nil else { throw .noSupportedTracks }
        for track in [audioTrack, videoTrack].compactMap({ $0 }) { queues[track.number] = FrameQueue() }
        initialH264Converter = if let videoTrack { try Self.makeH264Converter(for: videoTrack) } else { nil }
        h264Converter = initialH264Converter
    }

    /// The first track of `type` in the file, which must use a codec of its kind that we can
    /// send (Opus, VP8, H.264: ``MediaCodec/canPacketize``); nil when there is none.
    private static func pick(_ type: WebMTrackInfo.TrackType,
                             from tracks: [WebMTrackInfo]) throws(WebMReaderError) -> WebMTrackInfo? {
        let candidates = tracks.filter { $0.type == type }
        guard let first = candidates.first else { return nil }
        guard let playable = candidates.first(where: { track in
            track.codec.map { $0.kind == type.kind && $0.canPacketize } ?? false
        }) else { throw .unsupportedCodec(first.codecID) }
        return playable
    }

    /// The converter of an H.264 track, from its CodecPrivate; nil for another codec.
    private static func makeH264Converter(for track: WebMTrackInfo) throws(WebMReaderError) -> H264SampleConverter? {
        guard track.codec == .h264 else { return nil }
        do throws(H264Error) {
            return H264SampleConverter(configurationRecord: try AVCDecoderConfigurationRecord(parsing: track.codecPrivate))
        } catch {
            throw .invalidH264(track: track.number, nanoseconds: nil, error)
        }
    }

    /// The next frame of `track`, or nil when the file has no more of it.
    func next(track: WebMTrackInfo) throws(WebMReaderError) -> EncodedMediaFrame? {
        if let queued = queues[track.number]?.pop() { return queued }
        while let frame = try reader.nextFrame() {
            framesSinceOpen += 1
            guard let owner = [audioTrack, videoTrack].compactMap({ $0 }).first(where: { $0.number == frame.trackNumber }),
                  let media = try encoded(frame, of: owner) else { continue }
            if owner.number == track.number { return media }
            try enqueue(media, for: owner.number)
        }
        return nil
    }

    /// Opens the file again from its start, for both tracks.
    func rewind() throws(WebMReaderError) {
        guard framesSinceOpen > 0 else { return }
        reader.close()
        reader = try WebMReader(path: path)
        for number in queues.keys { queues[number] = FrameQueue() }
        laceOffsets.removeAll()
        h264Converter = initialH264Converter
        framesSinceOpen = 0
    }

    private func enqueue(_ frame: EncodedMediaFrame, for track: UInt64) throws(WebMReaderError) {
        var queue = queues[track] ?? FrameQueue()
        queue.push(frame)
        queues[track] = queue
        if queue.count > limit.frames || queue.bytes > limit.bytes {
            throw .interleavingTooLoose(track: track, queuedFrames: queue.count, queuedBytes: queue.bytes)
        }
    }

    /// The file's frame as a player sends it: presentation time (block time + lace offset −
    /// CodecDelay), keyframe-ness from the frame itself (VP8's frame tag, an H.264 IDR slice),
    /// and H.264 in Annex B form. Empty frames carry nothing to send and are skipped (nil).
    private func encoded(_ frame: WebMFrame, of track: WebMTrackInfo) throws(WebMReaderError) -> EncodedMediaFrame? {
        // Laces of one block share its time; each starts where the previous one's audio ended
        // (Opus TOC), or one DefaultDuration later for video.
        if frame.laceIndex == 0 { laceOffsets[track.number] = 0 }
        // Every picked track has a codec (see pick).
        guard !frame.bytes.isEmpty, let codec = track.codec else { return nil }
        let isAudio = track.type == .audio
        let laceOffset = laceOffsets[track.number] ?? 0
        if frame.laceCount > 1 {
            let duration: Int64
            if isAudio {
                let samples: Int
                do {
                    samples = try frame.bytes.withUnsafeBytes { bytes throws(OpusPacket.Error) in try OpusPacket.sampleCount(bytes) }
                } catch {
                    throw .corrupt("Opus lace \(frame.laceIndex) of the block at \(frame.timestampNanoseconds) ns has a bad TOC (\(error))")
                }
                duration = Int64(samples) * 1_000_000_000 / Int64(OpusDecoder.sampleRate)
            } else {
                duration = track.defaultDurationNanoseconds
            }
            laceOffsets[track.number] = laceOffset + duration
        }
        let (shifted, overflowA) = frame.timestampNanoseconds.addingReportingOverflow(laceOffset)
        let (time, overflowB) = shifted.subtractingReportingOverflow(track.codecDelayNanoseconds)
        guard !overflowA, !overflowB else { throw .corrupt("frame time \(frame.timestampNanoseconds) ns is out of range") }
        if codec == .h264 {
            return try h264Frame(frame.bytes, of: track, at: time)
        }
        return EncodedMediaFrame(bytes: frame.bytes, timestampNanoseconds: time,
                                 isKeyframe: VPXCodec(codec).map { IVFReader.isKeyframe(frame.bytes, codec: $0) } ?? true,
                                 codec: codec)
    }
}

extension WebMDemuxer {
    /// An H.264 block as an Annex B access unit, through the track's converter.
    private func h264Frame(_ sample: [UInt8], of track: WebMTrackInfo, at time: Int64) throws(WebMReaderError) -> EncodedMediaFrame {
        // The video track is H.264 when this is called, so the init made its converter.
        guard var converter = h264Converter else { throw .invalidH264(track: track.number, nanoseconds: time, .missingConfigurationRecord) }
        defer { h264Converter = converter }
        do throws(H264Error) {
            let unit = try converter.accessUnit(fromSample: sample)
            return EncodedMediaFrame(bytes: unit.annexB, timestampNanoseconds: time, isKeyframe: unit.isIDR, codec: .h264)
        } catch {
            throw .invalidH264(track: track.number, nanoseconds: time, error)
        }
    }
}

/// A FIFO of frames that knows its size in frames and bytes.
private struct FrameQueue {
    private var frames: [EncodedMediaFrame] = []
    private var head = 0
    private(set) var bytes = 0

    var count: Int { frames.count - head }

    mutating func push(_ frame: EncodedMediaFrame) {
        frames.append(frame)
        bytes += frame.bytes.count
    }

    mutating func pop() -> EncodedMediaFrame? {
        guard head < frames.count else { return nil }
        let frame = frames[head]
        head += 1
        bytes -= frame.bytes.count
        // Drop the consumed prefix now and then, so the array does not grow with the file.
        if head == frames.count || head >= 256 {
            frames.removeFirst(head)
            head = 0
        }
        return frame
    }
}
