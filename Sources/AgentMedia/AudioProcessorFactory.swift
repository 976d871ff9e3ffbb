/// Makes one ``AudioProcessor`` per track, for the format that track runs at: how processing is
/// set for a track and how it is given as an engine default to every track.
///
/// A factory rather than a processor, because a processor has state of its own (speex's noise
/// estimate, an AGC's gain) that must follow one stream and is not safe to share between
/// threads. The closure is `@Sendable`, so it cannot capture a processor to hand to two tracks;
/// each call makes a fresh one.
///
/// ```swift
/// let voice = try AudioProcessorFactory.chain([.noiseSuppression(), .gain(.init(gainDecibels: 6))])
/// let track = try AudioTrack(configuration: .init(), processor: voice)
/// ```
public struct AudioProcessorFactory: Sendable {
    public typealias Make = @Sendable (AudioProcessingFormat) throws(AudioProcessorError) -> any AudioProcessor

    /// What the factory makes, for tracing and error messages.
    public let name: String
    private let make: Make

    /// A factory of your own: `make` is called once per track, with the track's format, and must
    /// return a processor for exactly that format.
    public init(name: String, make: @escaping Make) {
        self.name = name
        self.make = make
    }

    /// A new processor for `format`.
    /// - Throws: what the processor's init throws for the format (``AudioProcessorError``), or
    ///   ``AudioProcessorError/formatMismatch(expected:got:)`` when it was made for another.
    public func makeProcessor(for format: AudioProcessingFormat) throws(AudioProcessorError) -> any AudioProcessor {
        let processor = try make(format)
        guard processor.format == format else { throw .formatMismatch(expected: format, got: processor.format) }
        return processor
    }

    // MARK: Built-ins

    /// No processing: an empty chain. For a track that must stay untouched where an engine
    /// default would otherwise apply.
    public static let passThrough = AudioProcessorFactory(name: "pass-through") { format throws(AudioProcessorError) in
        try AudioProcessorChain(format: format)
    }

    /// speex_preprocess noise suppression (see ``SpeexPreprocessor``).
    /// - Throws: settings out of range, at once; a rate speex cannot take comes when a track
    ///   makes its processor.
    public static func noiseSuppression(_ settings: SpeexPreprocessor.Settings = .noiseSuppression) throws(AudioProcessorError) -> AudioProcessorFactory {
        try speex(settings, name: "noise suppression")
    }

    /// speex_preprocess automatic gain control (see ``SpeexPreprocessor``); its default settings
    /// keep the denoiser on as well, in the same speex state, so it needs no ``noiseSuppression(_:)`` beside it.
    public static func automaticGainControl(_ settings: SpeexPreprocessor.Settings = .automaticGainControl) throws(AudioProcessorError) -> AudioProcessorFactory {
        try speex(settings, name: "automatic gain control")
    }

    /// A gain and a limiter (see ``GainLimiter``).
    /// - Throws: a gain or ceiling out of range, at once.
    public static func gain(_ settings: GainLimiter.Settings) throws(AudioProcessorError) -> AudioProcessorFactory {
        try settings.validate()
        return AudioProcessorFactory(name: "gain \(settings.gainDecibels) dB") { format throws(AudioProcessorError) in
            try GainLimiter(format: format, settings: settings)
        }
    }

    /// The processors of `factories`, run in that order (see ``AudioProcessorChain``).
    public static func chain(_ factories: [AudioProcessorFactory]) -> AudioProcessorFactory {
        AudioProcessorFactory(name: factories.map(\.name).joined(separator: " → ")) { format throws(AudioProcessorError) in
            var processors: [any AudioProcessor] = []
            for factory in factories { processors.append(try factory.makeProcessor(for: format)) }
            return try AudioProcessorChain(format: format, processors)
        }
    }

    private static func speex(_ settings: SpeexPreprocessor.Settings, name: String) throws(AudioProcessorError) -> AudioProcessorFactory {
        try settings.validate()
        return AudioProcessorFactory(name: name) { format throws(AudioProcessorError) in
            try SpeexPreprocessor(format: format, settings: settings)
        }
    }
}
