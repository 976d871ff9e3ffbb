import Agent

/// One track of a WebM or Matroska file: what it carries and how players should set up its
/// decoder.
public struct WebMTrack: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case audio(sampleRate: Int, channels: Int)
        case video(width: Int, height: Int)
    }

    /// 1-based, as SimpleBlocks name it.
    public var number: UInt8
    /// The Matroska CodecID: ``MediaCodec/matroskaCodecID`` for the codecs MediaCodec names.
    public var codecID: String
    public var kind: Kind
    /// The CodecPrivate element's body, when the codec has one: the Opus identification header,
    /// the AVCDecoderConfigurationRecord of an H.264 track.
    public var codecPrivate: [UInt8]?

    /// A track of `codec`; an Opus track gets its identification header as CodecPrivate.
    public init(number: UInt8, codec: MediaCodec, kind: Kind) {
        var codecPrivate: [UInt8]?
        if codec == .opus, case .audio(_, let channels) = kind { codecPrivate = Self.opusHead(channels: channels) }
        self.init(number: number, codecID: codec.matroskaCodecID, kind: kind, codecPrivate: codecPrivate)
    }

    public init(number: UInt8, codecID: String, kind: Kind, codecPrivate: [UInt8]? = nil) {
        self.number = number
        self.codecID = codecID
        self.kind = kind
        self.codecPrivate = codecPrivate
    }

    public static func opus(number: UInt8, channels: Int = 2) -> WebMTrack {
        WebMTrack(number: number, codec: .opus, kind: .audio(sampleRate: 48_000, channels: channels))
    }

    public static func video(number: UInt8, codec: MediaCodec = .vp8, width: Int, height: Int) -> WebMTrack {
        WebMTrack(number: number, codec: codec, kind: .video(width: width, height: height))
    }

    /// An H.264 track (``MediaCodec/matroskaCodecID``, the ISO/IEC 14496-15 form: samples are NAL
    /// units with 4-byte lengths): its size is the SPS's display size, its CodecPrivate the record.
    public static func avc(number: UInt8, configuration: AVCDecoderConfigurationRecord) -> WebMTrack {
        let sps = configuration.parsedSequenceParameterSet
        return WebMTrack(number: number, codecID: MediaCodec.h264.matroskaCodecID, kind: .video(width: sps.width, height: sps.height),
                         codecPrivate: configuration.bytes)
    }

    var isVideo: Bool {
        if case .video = kind { return true }
        return false
    }

    /// 1/60 s: the finest frame spacing the recorder writes (see ``ParticipantWebM``).
    public static let nominalFrameDurationNanoseconds: UInt64 = 16_666_667

    /// The Opus identification header (RFC 7845 §5.1), which Matroska carries as CodecPrivate.
    ///
    ///     "OpusHead" | version=1 | channels | pre-skip (LE16) | input rate (LE32) | gain (LE16) | mapping=0
    static func opusHead(channels: Int, preSkip: UInt16 = 312) -> [UInt8] {
        var head = Array("OpusHead".utf8)
        head.append(1)
        head.append(UInt8(channels))
        head += [UInt8(preSkip & 0xFF), UInt8(preSkip >> 8)]
        head += [0x80, 0xBB, 0x00, 0x00]  // 48000
        head += [0, 0]
        head.append(0)
        return head
    }

    /// The TrackEntry element.
    var entry: [UInt8] {
        var children: [[UInt8]] = [
            EBML.unsigned(MatroskaID.trackNumber, UInt64(number)),
            EBML.unsigned(MatroskaID.trackUID, UInt64(number) &* 0x9E37_79B9 &+ 1),
            EBML.unsigned(MatroskaID.flagLacing, 0),
            EBML.string(MatroskaID.codecID, codecID),
        ]
        if let codecPrivate { children.append(EBML.element(MatroskaID.codecPrivate, codecPrivate)) }
        switch kind {
        case .audio(let sampleRate, let channels):
            children.insert(EBML.unsigned(MatroskaID.trackType, 2), at: 2)
            if codecID == MediaCodec.opus.matroskaCodecID {
                children.append(EBML.unsigned(MatroskaID.codecDelay, 6_500_000))  // 312 samples at 48 kHz, in ns
                children.append(EBML.unsigned(MatroskaID.seekPreRoll, 80_000_000))
            }
            children.append(EBML.master(MatroskaID.audio, [
                EBML.float(MatroskaID.samplingFrequency, Double(sampleRate)),
                EBML.unsigned(MatroskaID.channels, UInt64(channels)),
            ]))
        case .video(let width, let height):
            children.insert(EBML.unsigned(MatroskaID.trackType, 1), at: 2)
            // Real-time video has a variable rate. A nominal 60 fps tells readers the finest
            // spacing to expect: without it ffmpeg guesses 30 fps from the first frames and then
            // rounds two frames sent closer than 1/30 s (a sender catching up) onto one time.
            children.append(EBML.unsigned(MatroskaID.defaultDuration, Self.nominalFrameDurationNanoseconds))
            children.append(EBML.master(MatroskaID.video, [
                EBML.unsigned(MatroskaID.pixelWidth, UInt64(width)),
                EBML.unsigned(MatroskaID.pixelHeight, UInt64(height)),
            ]))
        }
        return EBML.master(MatroskaID.trackEntry, children)
    }
}
