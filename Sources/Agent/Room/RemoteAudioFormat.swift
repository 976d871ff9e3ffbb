/// The PCM an audio sink delivers: rate, channels, frame length and sample type.
///
/// Opus always decodes at 48 kHz; other rates go through ``AudioResampler``. Frames are always
/// exactly ``samplesPerChannel`` long, so a consumer can feed them to code that wants fixed
/// blocks (a speech recognizer, a mixer) without buffering of its own.
public struct RemoteAudioFormat: Sendable, Equatable {
    /// Output rates on offer: the telephone, wideband and Opus rates, and CD audio.
    public static let supportedSampleRates = [8_000, 16_000, 24_000, 32_000, 44_100, 48_000]

    /// How long each delivered frame is (the audio processors' frame lengths too).
    public typealias FrameDuration = AudioFrameDuration

    /// Which sample arrays each frame carries: one or both.
    public struct SampleFormats: OptionSet, Sendable, Equatable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Interleaved Int16, full scale ±32767.
        public static let int16 = SampleFormats(rawValue: 1)
        /// Interleaved Float in −1 ... 1.
        public static let float = SampleFormats(rawValue: 2)
    }

    public let sampleRate: Int
    /// 1 (mono) or 2 (interleaved stereo). A stereo stream asked for as mono is downmixed by
    /// libopus, and a mono one asked for as stereo is duplicated into both channels.
    public let channels: Int
    public let frameDuration: FrameDuration
    public let sampleFormats: SampleFormats

    public init(sampleRate: Int = 48_000, channels: Int = 1, frameDuration: FrameDuration = .milliseconds20,
                sampleFormats: SampleFormats = .int16) throws(RemoteTrackError) {
        guard Self.supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        guard channels == 1 || channels == 2 else { throw .unsupportedChannels(channels) }
        guard !sampleFormats.isEmpty else { throw .noSampleFormat }
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameDuration = frameDuration
        self.sampleFormats = sampleFormats
    }

    /// Samples per channel in one frame (every supported rate divides into whole 10 ms frames).
    public var samplesPerChannel: Int { sampleRate * frameDuration.rawValue / 1000 }

    /// One frame's length in 48 kHz RTP ticks, the Opus RTP clock (RFC 7587 §4.1).
    public var ticksPerFrame: Int64 { Int64(48 * frameDuration.rawValue) }

    public var duration: Duration { .milliseconds(frameDuration.rawValue) }

    /// The frames a render processor of this sink takes (every supported rate is one it takes).
    var processingFormat: AudioProcessingFormat {
        get throws(AudioProcessorError) {
            try AudioProcessingFormat(sampleRate: sampleRate, channels: channels, frameDuration: frameDuration)
        }
    }
}
