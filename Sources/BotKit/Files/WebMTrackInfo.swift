import Agent

/// One TrackEntry of a WebM file, as libwebm parsed it: enough to pick a track, check its codec
/// and size a decoder or packetizer.
public struct WebMTrackInfo: Sendable, Equatable {
    /// The TrackType element: video (1), audio (2), or anything else (subtitles, buttons...).
    public enum TrackType: Sendable, Equatable {
        case video, audio, other

        /// Audio and video map to a ``MediaKind``; other tracks have none.
        public var kind: MediaKind? {
            switch self {
            case .video: .video
            case .audio: .audio
            case .other: nil
            }
        }
    }

    /// The TrackNumber blocks refer to.
    public var number: UInt64
    public var type: TrackType
    /// The CodecID element: "V_VP8", "A_OPUS", "V_VP9", "A_VORBIS", "V_MPEG4/ISO/AVC"...
    public var codecID: String
    /// The codec `codecID` names, or nil for one we do not handle.
    public var codec: MediaCodec? { MediaCodec(matroskaCodecID: codecID) }
    /// PixelWidth and PixelHeight; 0 for audio, or when the file leaves them out.
    public var width: Int
    public var height: Int
    /// Channels and SamplingFrequency; 0 for video.
    public var channels: Int
    public var samplingFrequency: Double
    /// CodecDelay (for Opus, the pre-skip): block time − this = presentation time.
    public var codecDelayNanoseconds: Int64
    /// DefaultDuration, 0 when absent; used to time the laces of a laced video block.
    public var defaultDurationNanoseconds: Int64
    /// CodecPrivate: the OpusHead packet for Opus, empty for VP8.
    public var codecPrivate: [UInt8]

    public init(number: UInt64, type: TrackType, codecID: String, width: Int = 0, height: Int = 0,
                channels: Int = 0, samplingFrequency: Double = 0, codecDelayNanoseconds: Int64 = 0,
                defaultDurationNanoseconds: Int64 = 0, codecPrivate: [UInt8] = []) {
        self.number = number
        self.type = type
        self.codecID = codecID
        self.width = width
        self.height = height
        self.channels = channels
        self.samplingFrequency = samplingFrequency
        self.codecDelayNanoseconds = codecDelayNanoseconds
        self.defaultDurationNanoseconds = defaultDurationNanoseconds
        self.codecPrivate = codecPrivate
    }
}
