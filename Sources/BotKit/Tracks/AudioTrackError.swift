import Agent

/// Why an ``AudioTrack`` refused its configuration or a push.
public enum AudioTrackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The track's channel count is not 1 or 2.
    case unsupportedChannels(Int)
    /// An Opus bitrate outside ``AudioTrack/Configuration/bitrateRange``.
    case unsupportedBitrate(Int)
    /// A packet loss percentage outside 0 ... 100.
    case unsupportedPacketLossPercent(Int)
    /// A queue length outside ``AudioTrack/Configuration/maxQueuedDurationRange``.
    case unsupportedMaxQueuedDuration(Duration)
    /// Pushed PCM at a rate outside ``AudioResampler/supportedRates``.
    case unsupportedInputRate(Int)
    /// Pushed PCM with a channel count other than 1 or 2.
    case unsupportedInputChannels(Int)
    /// Pushed interleaved PCM that is not a whole number of frames (an odd count in stereo).
    case partialFrame(sampleCount: Int, channels: Int)
    /// The track was closed; nothing more can be pushed.
    case closed
    /// The Opus encoder could not be set up with the configuration.
    case encoder(OpusError)
    /// libsamplerate failed while converting pushed PCM.
    case resampler(AudioResamplerError)
    /// The capture processor cannot run on the track's frames.
    case processor(AudioProcessorError)

    public var description: String {
        switch self {
        case .unsupportedChannels(let channels): "an audio track has 1 or 2 channels, not \(channels)"
        case .unsupportedBitrate(let bitrate):
            "Opus bitrate \(bitrate) bit/s is outside \(AudioTrack.Configuration.bitrateRange)"
        case .unsupportedPacketLossPercent(let percent): "packet loss of \(percent) % is outside 0...100"
        case .unsupportedMaxQueuedDuration(let duration):
            "a queue of \(duration) is outside \(AudioTrack.Configuration.maxQueuedDurationRange)"
        case .unsupportedInputRate(let rate):
            "pushed PCM at \(rate) Hz is not supported (\(AudioResampler.supportedRates.lowerBound)...\(AudioResampler.supportedRates.upperBound) Hz)"
        case .unsupportedInputChannels(let channels): "pushed PCM has \(channels) channels (mono or stereo only)"
        case .partialFrame(let sampleCount, let channels):
            "\(sampleCount) samples is not a whole number of \(channels)-channel frames"
        case .closed: "the audio track is closed"
        case .encoder(let error): "Opus encoder: \(error)"
        case .resampler(let error): "resampler: \(error)"
        case .processor(let error): "audio processor: \(error)"
        }
    }
}
