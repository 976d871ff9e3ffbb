import Agent

/// Muxes one participant's Opus and VP8/VP9 frames into `<name>.webm`, or with H.264 video into
/// `<name>.mkv` (Matroska: H.264 is not in the WebM subset).
///
/// A WebM track needs the video size before the first block, and the size is only known from a
/// keyframe. So while a video track is announced but no keyframe has come, audio is held (up to
/// ``holdLimitMs`` of it); if none comes in time the file goes audio-only (and the video, at its
/// first keyframe, starts the participant's next part: ``ParticipantRecording``). Video frames before the
/// first keyframe cannot be decoded and are dropped. With both tracks the file also waits for
/// ``align(shiftingVideoBy:)`` (video lined up with audio by their sender reports, see
/// ``AVAlignment``), within the same hold limit, so its first blocks are already in sync; an
/// alignment after the file was created moves the video frames still held and every later one.
///
///     frames ─▶ [hold until keyframe and alignment / hold limit] ─▶ reorder window ─▶ WebMWriter
///
/// Times are milliseconds on the recording's timeline (from the frames' mapped wall times); block
/// timestamps count from the file's first frame, whose recording time is ``startMs``. Audio and
/// video arrive interleaved by the network, not by capture time, so frames wait in a short
/// reorder window and go to the writer in time order; a frame that misses the window is still
/// written at its own time (Matroska needs order within a track, not across tracks).
///
/// A keyframe with a new size stays in the same file: VP8 and VP9 keyframes carry their size in
/// band and decoders (ffmpeg, browsers) follow it. The change is listed in ``resolutionChanges``.
///
/// **H.264** access units come in Annex B form (``H264DepacketizerAdapter``) and are written as
/// length-prefixed samples (``H264SampleConverter``), which keeps the stream's latest SPS and
/// PPS and puts them in front of an IDR that came without: every keyframe decodes on its own.
/// The track's size and CodecPrivate (the AVCDecoderConfigurationRecord) come from the sets of
/// the first IDR; new sets later (a size change) travel in band, as VP8's sizes do.
///
/// **Across a reconnect** the file goes on: block times jump over the gap (each track's times
/// come from the frames' wall times again, see ``ParticipantRecording``), and after
/// ``resumeAfterGap()`` video waits for a keyframe, as the frames before it reference pictures
/// the decoder never got. Video in another codec than the file's track is dropped and counted.
///
/// A write error (disk full) ends the file: it is closed as far as it got and ``error`` says why.
/// Not thread-safe: the recorder's writer queue owns it.
final class ParticipantWebM {
    struct Frame {
        var kind: MediaKind
        var bytes: [UInt8]
        var isKeyframe: Bool
        var ms: Int64
        /// The codec of a video frame, when known: one in another codec than the track is dropped.
        var codec: MediaCodec? = nil
        /// The size a video keyframe declares (set by ``add(_:)``).
        var keyframeSize: (width: Int, height: Int)? = nil
    }

    /// The file's name without its extension, which the container picks (``MatroskaDocType``).
    let baseName: String
    private let directory: RecordingDirectory
    let holdLimitMs: Int64
    let reorderWindowMs: Int64

    private(set) var audioAnnounced = false
    private(set) var videoCodec: MediaCodec?
    private var writer: WebMWriter?
    private var audioTrack: UInt8?
    private var videoTrack: UInt8?
    private(set) var videoSize: (width: Int, height: Int)?
    private var currentSize: (width: Int, height: Int)?
    private var pending: [Frame] = []
    private var newestMs: Int64 = .min
    private var lastTrackMs: [UInt8: Int64] = [:]
    private var closed = false
    /// Set by ``resumeAfterGap()``: video frames are dropped until a keyframe.
    private var awaitingKeyframe = false
    /// The first keyframe's size, while the file waits for the alignment.
    private var keyframeSize: (width: Int, height: Int)?
    /// The shift video got to line up with audio (``align(shiftingVideoBy:)``), once it has.
    private(set) var videoShiftMs: Int64?

    /// The file's time 0 on the recording's timeline; nil until the file exists.
    private(set) var startMs: Int64?
    private(set) var error: String?
    private(set) var resolutionChanges: [RecordingManifest.ResolutionChange] = []
    private(set) var keyframesWritten: Int64 = 0
    private(set) var videoFramesDropped: Int64 = 0
    /// Frames that came later than the reorder window and were moved up to keep time order.
    private(set) var framesClamped: Int64 = 0
    private(set) var durationMs: Int64 = 0
    /// H.264 access units to samples, with the stream's latest parameter sets.
    private var h264 = H264SampleConverter()
    /// The parameter sets of the first H.264 keyframe: the track's CodecPrivate.
    private var avcConfiguration: AVCDecoderConfigurationRecord?
    /// Set when the file is created: webm, or matroska for H.264.
    private(set) var docType: MatroskaDocType?

    init(directory: RecordingDirectory, baseName: String, holdLimitMs: Int64 = 2000, reorderWindowMs: Int64 = 100) {
        self.baseName = baseName
        self.directory = directory
        self.holdLimitMs = holdLimitMs
        self.reorderWindowMs = reorderWindowMs
    }

    /// `<name>.webm`, or `<name>.mkv` for a file with H.264 video (before the file exists, the
    /// name it will get with the video announced so far).
    var fileName: String {
        let type = docType ?? (videoCodec == .h264 ? .matroska : .webm)
        return "\(baseName).\(type.fileExtension)"
    }

    var path: String { directory.filePath(fileName) }

    /// Whether the file was created.
    var exists: Bool { startMs != nil }
    var hasAudio: Bool { audioTrack != nil }
    var hasVideo: Bool { videoTrack != nil }

    func announce(kind: MediaKind, codec: MediaCodec) {
        switch kind {
        case .audio: audioAnnounced = true
        case .video:
            // The track's codec is fixed once the file exists (a publisher back after a
            // reconnect with another codec gets its video dropped, see add).
            if writer == nil, codec.kind == .video { videoCodec = codec }
        }
    }

    /// Starts from `earlier`'s H.264 parameter sets (the next part of the same stream).
    func takeParameterSets(from earlier: ParticipantWebM) {
        h264 = earlier.h264
    }

    /// The connection dropped and media will come from new streams: video resumes at a keyframe.
    func resumeAfterGap() {
        awaitingKeyframe = true
    }

    func add(_ frame: Frame) {
        guard !closed, error == nil else { return }
        guard let frame = prepared(frame) else {
            videoFramesDropped += 1
            return
        }
        if writer == nil {
            guard admitBeforeFile(frame) else { return }
        } else {
            guard frame.kind == .audio ? audioTrack != nil : videoTrack != nil else {
                if frame.kind == .video { videoFramesDropped += 1 }
                return
            }
            if frame.kind == .video {
                guard frame.codec == nil || frame.codec == videoCodec, !awaitingKeyframe || frame.isKeyframe else {
                    videoFramesDropped += 1
                    return
                }
                awaitingKeyframe = false
            }
            insert(frame)
        }
        flush(upTo: newestMs - reorderWindowMs)
    }

    /// A video frame as the file takes it, with its keyframe's size: H.264 as a length-prefixed
    /// sample (every H.264 frame goes through the converter, those dropped before the first
    /// keyframe too, so parameter sets sent early are kept). Nil for an access unit that cannot
    /// be read.
    private func prepared(_ frame: Frame) -> Frame? {
        guard frame.kind == .video else { return frame }
        var frame = frame
        switch frame.codec ?? videoCodec {
        case .h264:
            guard let sample = try? h264.convert(frame.bytes) else { return nil }
            frame.bytes = sample.bytes
            if frame.isKeyframe, let sps = h264.parameterSets?.parsedSequenceParameterSet {
                frame.keyframeSize = (sps.width, sps.height)
            }
        case let codec:
            if frame.isKeyframe { frame.keyframeSize = Self.size(of: frame.bytes, codec: codec) }
        }
        return frame
    }

    /// Video was lined up with audio: frames still held move by `shift` ms (later frames come
    /// placed already), and a file that waited for this is created.
    func align(shiftingVideoBy shift: Int64) {
        videoShiftMs = shift
        if shift != 0, pending.contains(where: { $0.kind == .video }) {
            var moved = pending
            for index in moved.indices where moved[index].kind == .video { moved[index].ms += shift }
            pending.removeAll(keepingCapacity: true)
            newestMs = .min
            for frame in moved { insert(frame) }
        }
        guard writer == nil, !closed, error == nil else { return }
        openIfReady()
    }

    /// Before the file exists: hold audio, wait for a keyframe (and the alignment), create the
    /// file when it can be. Returns false for a frame that is dropped.
    private func admitBeforeFile(_ frame: Frame) -> Bool {
        if frame.kind == .video {
            if keyframeSize == nil {
                guard videoCodec != nil, frame.codec == nil || frame.codec == videoCodec, frame.isKeyframe,
                      let size = frame.keyframeSize, videoCodec != .h264 || h264.parameterSets != nil
                else {
                    videoFramesDropped += 1
                    return false
                }
                keyframeSize = size
                if videoCodec == .h264 { avcConfiguration = h264.parameterSets }
            }
            guard frame.codec == nil || frame.codec == videoCodec, !awaitingKeyframe || frame.isKeyframe else {
                videoFramesDropped += 1
                return false
            }
            awaitingKeyframe = false
        }
        insert(frame)
        openIfReady()
        return true
    }

    /// Creates the file once nothing more is worth waiting for: audio-only when no video track
    /// is announced or no keyframe came within the hold limit; with video at the first keyframe,
    /// once aligned, or when there is no audio to align with, or at the hold limit.
    private func openIfReady() {
        let held = pending.first.map { newestMs - $0.ms } ?? 0
        let timedOut = held >= holdLimitMs
        if videoCodec == nil {
            if pending.contains(where: { $0.kind == .audio }) { open(size: nil) }
        } else if let size = keyframeSize {
            if videoShiftMs != nil || !audioAnnounced || timedOut { open(size: size) }
        } else if timedOut {
            open(size: nil)
        }
    }

    private func insert(_ frame: Frame) {
        newestMs = max(newestMs, frame.ms)
        // Frames nearly always arrive in order: search from the back.
        var index = pending.count
        while index > 0, pending[index - 1].ms > frame.ms { index -= 1 }
        pending.insert(frame, at: index)
    }

    /// Creates the file: audio if announced or held, video if a keyframe gave its size.
    private func open(size: (width: Int, height: Int)?) {
        var tracks: [WebMTrack] = []
        let withAudio = audioAnnounced || pending.contains { $0.kind == .audio }
        if withAudio {
            audioTrack = UInt8(tracks.count + 1)
            tracks.append(.opus(number: UInt8(tracks.count + 1)))
        }
        if let size, let videoCodec {
            let number = UInt8(tracks.count + 1)
            if videoCodec == .h264 {
                if let avcConfiguration { tracks.append(.avc(number: number, configuration: avcConfiguration)) }
            } else {
                tracks.append(.video(number: number, codec: videoCodec, width: size.width, height: size.height))
            }
            if tracks.count == Int(number) {
                videoTrack = number
                videoSize = size
                currentSize = size
            }
        }
        // Held frames of a kind the file has no track for (none, by construction) would be lost.
        pending.removeAll { $0.kind == .video && videoTrack == nil }
        guard !tracks.isEmpty else { return }
        do {
            docType = MatroskaDocType(tracks: tracks)
            writer = try WebMWriter(path: path, tracks: tracks)
            startMs = pending.first?.ms ?? 0
        } catch {
            fail(error)
        }
    }

    /// Writes the pending frames at or before `limit`, oldest first.
    private func flush(upTo limit: Int64) {
        guard let writer, let startMs else { return }
        var written = 0
        for frame in pending {
            guard frame.ms <= limit else { break }
            written += 1
            let track = frame.kind == .audio ? audioTrack : videoTrack
            guard let track else { continue }
            // Each track's times come from its RTP clock, so they only go back after a re-anchor
            // (a sender restart); such a frame is kept strictly after its track's previous block.
            // Tracks are not clamped against each other: Matroska needs order per track only,
            // and pushing late audio up to the video's time would bunch audio blocks 1 ms apart.
            // Video frames are kept at least 17 ms apart (beyond the track's nominal 60 fps), so
            // readers that quantize to that rate never see two frames at one time.
            var timestamp = max(0, frame.ms - startMs)
            let spacing: Int64 = frame.kind == .audio ? 20 : 17
            if let previous = lastTrackMs[track], timestamp < previous + (frame.kind == .audio ? 1 : spacing) {
                timestamp = previous + spacing
                framesClamped += 1
            }
            lastTrackMs[track] = timestamp
            do {
                try writer.write(track: track, timestampMs: timestamp, keyframe: frame.isKeyframe, frame: frame.bytes)
            } catch {
                fail(error)
                return
            }
            if frame.kind == .video, frame.isKeyframe {
                keyframesWritten += 1
                // Noted as written, at the time the file has it (held frames may have moved).
                if let size = frame.keyframeSize, let current = currentSize, size != current {
                    resolutionChanges.append(.init(tMs: frame.ms, width: size.width, height: size.height))
                    currentSize = size
                }
            }
        }
        pending.removeFirst(written)
        durationMs = writer.durationMs
    }

    /// Writes everything still held and finishes the file. Idempotent.
    func close() {
        guard !closed else { return }
        if writer == nil, error == nil, !pending.isEmpty { open(size: keyframeSize) }
        flush(upTo: .max)
        closed = true
        pending.removeAll()
        if let writer {
            durationMs = writer.durationMs
            do { try writer.close() } catch { fail(error) }
        }
    }

    private func fail(_ failure: Error) {
        if error == nil { error = "\(failure)" }
        pending.removeAll()
        if let writer { try? writer.close() }
        closed = true
    }

    /// The size a keyframe declares, by codec.
    static func size(of frame: [UInt8], codec: MediaCodec?) -> (width: Int, height: Int)? {
        switch codec {
        case .vp8: frame.withUnsafeBytes { VP8Depacketizer.keyframeSize(of: $0) }
        case .vp9: VP9KeyframeHeader.keyframeSize(of: frame)
        default: nil
        }
    }

    /// The manifest entry, or nil if the file was never created (and creating it did not fail).
    func manifestFile(mappings: [MediaKind: RecordingManifest.RTPNTPMapping], bytes: Int64?) -> RecordingManifest.File? {
        guard startMs != nil || error != nil else { return nil }
        var tracks: [RecordingManifest.Track] = []
        if audioTrack != nil {
            tracks.append(.init(kind: .audio, codec: MediaCodec.opus.name, channels: 2, sampleRate: 48_000, rtpNtpMapping: mappings[.audio]))
        }
        if videoTrack != nil {
            tracks.append(.init(kind: .video, codec: (videoCodec ?? .vp8).name, width: videoSize?.width,
                                height: videoSize?.height, rtpNtpMapping: mappings[.video], avShiftMs: videoShiftMs))
        }
        var file = RecordingManifest.File(path: fileName, format: "webm", startMs: startMs ?? 0, tracks: tracks,
                                          bytes: bytes, durationMs: durationMs)
        file.container = docType?.rawValue
        file.error = error
        return file
    }
}
