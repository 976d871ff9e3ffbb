/// The frames an ``AudioProcessor`` takes, fixed when it is made: interleaved 16-bit PCM at one
/// rate and channel count, always exactly one ``AudioFrameDuration`` long.
///
/// Fixed frames are what lets a processor keep filter state across calls (speex_preprocess
/// cannot change its frame size once made), and they are what the tracks already produce: an
/// ``AudioFrameDuration/milliseconds20`` frame at 48 kHz on the way to the Opus encoder, a remote
/// sink's own format on the way out.
public struct AudioProcessingFormat: Sendable, Equatable, CustomStringConvertible {
    /// From narrowband telephony to high-resolution audio; a rate must also be a multiple of
    /// 100 Hz so a 10 ms frame is a whole number of samples.
    public static let sampleRateRange = 8_000...192_000
    /// Up to 7.1; the tracks themselves are mono or stereo.
    public static let channelRange = 1...8

    public let sampleRate: Int
    public let channels: Int
    public let frameDuration: AudioFrameDuration

    public init(sampleRate: Int, channels: Int, frameDuration: AudioFrameDuration) throws(AudioProcessorError) {
        guard Self.sampleRateRange.contains(sampleRate), sampleRate % 100 == 0 else {
            throw .unsupportedSampleRate(sampleRate)
        }
        guard Self.channelRange.contains(channels) else { throw .unsupportedChannels(channels) }
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameDuration = frameDuration
    }

    /// Samples per channel in one frame.
    public var samplesPerChannel: Int { frameDuration.samplesPerChannel(atRate: sampleRate) }

    /// Interleaved samples in one frame: what ``AudioProcessor/process(_:)`` is handed.
    public var samplesPerFrame: Int { samplesPerChannel * channels }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(frameDuration.rawValue) ms" }
}
