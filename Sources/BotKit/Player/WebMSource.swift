import Agent

/// One WebM or Matroska file played as it is stored: its Opus audio and VP8 or H.264 video as
/// up to two ``EncodedFrameSource``s, for ``FramePlaylist`` to interleave and a player to
/// repacketize without re-encoding (H.264 blocks only change framing: see ``WebMDemuxer``).
///
/// Both sources share one streaming ``WebMReader`` (see ``WebMDemuxer`` for how frames of the
/// other track wait, and ``QueueLimit`` for the bound). Times are the file's own: block time
/// (cluster + block timecode × TimecodeScale) minus the track's CodecDelay, so audio and video stay
/// in sync, and the first Opus packet may start a few ms before zero, as with Ogg pre-skip. The
/// laces of a laced Opus block are timed one after the other by their TOC durations.
///
/// The first audio and the first video track are played. A file whose audio is not A_OPUS or whose
/// video is not V_VP8 or V_MPEG4/ISO/AVC (VP9, Vorbis, HEVC...) is refused with
/// ``WebMReaderError/unsupportedCodec(_:)`` naming the codec, rather than played with a track
/// missing; leave that kind out of `kinds` to play the other one alone.
public final class WebMSource {
    /// How far one track may run ahead of the other in the file: frames (and their bytes) read
    /// while looking for the other track's next frame, queued per track.
    public struct QueueLimit: Sendable, Equatable {
        public var frames: Int
        public var bytes: Int

        public init(frames: Int, bytes: Int) {
            self.frames = frames
            self.bytes = bytes
        }

        /// 1024 frames (20 s of 20 ms Opus, 40 s of 25 fps video) or 32 MiB, far beyond the few
        /// seconds of skew muxers leave, while a file that is not interleaved at all fails fast.
        public static let standard = QueueLimit(frames: 1024, bytes: 32 << 20)
    }

    public let path: String
    /// The Opus track's source; nil if the file has none or `.audio` was not asked for.
    public let audio: WebMTrackSource?
    /// The VP8 or H.264 track's source; nil if the file has none or `.video` was not asked for.
    public let video: WebMTrackSource?
    /// The video track's PixelWidth and PixelHeight.
    public var width: Int? { video?.track.width }
    public var height: Int? { video?.track.height }
    /// Audio then video, the ones present: what a ``FramePlaylist`` takes.
    public var sources: [EncodedFrameSource] { [audio, video].compactMap { $0 } }

    public init(path: String, kinds: Set<MediaKind> = [.audio, .video],
                queueLimit: QueueLimit = .standard) throws(WebMReaderError) {
        self.path = path
        let demuxer = try WebMDemuxer(path: path, kinds: kinds, limit: queueLimit)
        audio = demuxer.audioTrack.map { WebMTrackSource(demuxer: demuxer, track: $0, kind: .audio) }
        video = demuxer.videoTrack.map { WebMTrackSource(demuxer: demuxer, track: $0, kind: .video) }
    }
}

/// One track of a ``WebMSource``.
///
/// Rewinding either track rewinds the file for both, since they share one reader;
/// ``FramePlaylist`` rewinds all its sources together, and the second rewind in a row costs
/// nothing.
public final class WebMTrackSource: EncodedFrameSource {
    public let kind: MediaKind
    public let track: WebMTrackInfo
    /// The demuxer plays only tracks whose codec it knows (Opus, VP8, H.264).
    public var codec: MediaCodec { track.codec ?? (kind == .audio ? .opus : .vp8) }
    private let demuxer: WebMDemuxer

    init(demuxer: WebMDemuxer, track: WebMTrackInfo, kind: MediaKind) {
        self.demuxer = demuxer
        self.track = track
        self.kind = kind
    }

    public func next() throws -> EncodedMediaFrame? { try demuxer.next(track: track) }
    public func rewind() throws { try demuxer.rewind() }
}
