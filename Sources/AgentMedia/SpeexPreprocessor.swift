import CSpeexDSP

/// Noise suppression and automatic gain control by libspeexdsp's preprocessor
/// (`speex_preprocess_run`), as an ``AudioProcessor``.
///
/// speex_preprocess works on one channel in frames of a size fixed when its state is made, and
/// its states are not thread-safe. So this keeps one state per channel (a stereo frame is split
/// into its channels, each processed on its own and put back: the stereo image stays, at twice
/// the cost of a downmix), and always runs speex on 10 ms: a 20 ms frame is two speex frames.
/// Measured on a gated tone in white noise, 10 ms frames follow the onsets closely enough to gain
/// about 2 dB more SNR than 20 ms ones.
///
/// The noise estimate adapts to what is stationary, so a steady tone that never stops is in time
/// taken for noise and suppressed with it; speech, with its pauses, is what it is made for.
/// AGC steers towards ``Settings/agcLevel`` at up to 12 dB a second and at most 30 dB of gain
/// (speex's defaults).
public final class SpeexPreprocessor: AudioProcessor {
    /// The rates speex_preprocess is built and tuned for (its filter bank and priors assume
    /// speech bandwidths; beyond 48 kHz it has nothing to offer).
    public static let supportedSampleRates = [8_000, 16_000, 24_000, 32_000, 44_100, 48_000]
    /// The frame speex itself runs on.
    static let speexFrame = AudioFrameDuration.milliseconds10

    public struct Settings: Sendable, Equatable {
        /// How far noise may be pulled down, in dB (speex's own default is -15).
        public static let noiseSuppressionRange = -60.0...0.0
        /// speex's loudness target, in its own units (8000 is its default, around -20 dBFS
        /// for speech); speex itself clamps to this range.
        public static let agcLevelRange = 1.0...32_768.0

        /// Spectral noise suppression on.
        public var denoise: Bool
        /// The most noise is attenuated, in dB (negative).
        public var noiseSuppressionDecibels: Int
        /// Automatic gain control on.
        public var automaticGainControl: Bool
        public var agcLevel: Double

        public init(denoise: Bool = true, noiseSuppressionDecibels: Int = -30, automaticGainControl: Bool = false,
                    agcLevel: Double = 8_000) {
            self.denoise = denoise
            self.noiseSuppressionDecibels = noiseSuppressionDecibels
            self.automaticGainControl = automaticGainControl
            self.agcLevel = agcLevel
        }

        /// Noise suppression at -30 dB, no AGC.
        public static let noiseSuppression = Settings()
        /// AGC to speex's default level, with the denoiser on: AGC uses its speech estimate to
        /// tell speech from noise, so it does not pump up the noise in pauses.
        public static let automaticGainControl = Settings(automaticGainControl: true)

        public func validate() throws(AudioProcessorError) {
            try AudioProcessorError.check("noise suppression (dB)", Double(noiseSuppressionDecibels), in: Self.noiseSuppressionRange)
            try AudioProcessorError.check("AGC level", agcLevel, in: Self.agcLevelRange)
        }
    }

    public let format: AudioProcessingFormat
    public let settings: Settings
    /// One speex state per channel, made in init and destroyed in deinit.
    private let states: [OpaquePointer]
    /// One channel's 10 ms, gathered from the interleaved frame and scattered back.
    private var channelFrame: [Int16]

    public init(format: AudioProcessingFormat, settings: Settings = .noiseSuppression) throws(AudioProcessorError) {
        try settings.validate()
        guard Self.supportedSampleRates.contains(format.sampleRate) else {
            throw .sampleRateNotSupported(processor: "speex_preprocess", rate: format.sampleRate,
                                          supported: Self.supportedSampleRates)
        }
        let frameSize = Self.speexFrame.samplesPerChannel(atRate: format.sampleRate)
        var states: [OpaquePointer] = []
        for _ in 0..<format.channels {
            guard let state = speex_preprocess_state_init(Int32(frameSize), Int32(format.sampleRate)) else {
                for made in states { speex_preprocess_state_destroy(made) }
                throw .library("speex_preprocess_state_init(\(frameSize), \(format.sampleRate)) failed")
            }
            Self.apply(settings, to: state)
            states.append(state)
        }
        self.format = format
        self.settings = settings
        self.states = states
        channelFrame = [Int16](repeating: 0, count: frameSize)
    }

    deinit {
        for state in states { speex_preprocess_state_destroy(state) }
    }

    public func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
        try checkFrameLength(of: samples)
        let channels = format.channels
        let frameSize = channelFrame.count
        let speexFrames = format.samplesPerChannel / frameSize
        samples.withUnsafeMutableBufferPointer { interleaved in
            channelFrame.withUnsafeMutableBufferPointer { channelFrame in
                for speexFrame in 0..<speexFrames {
                    let first = speexFrame * frameSize * channels
                    for (channel, state) in states.enumerated() {
                        for index in 0..<frameSize { channelFrame[index] = interleaved[first + index * channels + channel] }
                        _ = speex_preprocess_run(state, channelFrame.baseAddress)
                        for index in 0..<frameSize { interleaved[first + index * channels + channel] = channelFrame[index] }
                    }
                }
            }
        }
    }

    /// The loudness gain AGC applies now, in dB, on the first channel (0 with AGC off).
    public var agcGainDecibels: Int {
        guard settings.automaticGainControl, let state = states.first else { return 0 }
        var gain: Int32 = 0
        _ = speex_preprocess_ctl(state, SPEEX_PREPROCESS_GET_AGC_GAIN, &gain)
        return Int(gain)
    }

    /// speex_preprocess_ctl can only fail on an unknown request, and these are all known.
    private static func apply(_ settings: Settings, to state: OpaquePointer) {
        var denoise: Int32 = settings.denoise ? 1 : 0
        var suppression = Int32(settings.noiseSuppressionDecibels)
        var agc: Int32 = settings.automaticGainControl ? 1 : 0
        var level = Float(settings.agcLevel)
        _ = speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_DENOISE, &denoise)
        _ = speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &suppression)
        _ = speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_AGC, &agc)
        _ = speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_AGC_LEVEL, &level)
    }
}
