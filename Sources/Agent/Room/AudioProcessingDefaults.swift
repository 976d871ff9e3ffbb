/// The audio processing an ``AgentEngine`` gives every track that sets none of its own.
///
/// Capture processing applies to a bot's local `AudioTrack` (before Opus encoding) when it has
/// no processor of its own; render processing to every ``RemoteAudioSink`` made without one
/// (after decoding, before the level meter and the sink's consumer), when it is added to a
/// track of one of the engine's channels. Each is a factory: each track gets a processor of its
/// own, for its own format. A track opts out with ``AudioProcessorFactory/passThrough``.
///
/// ```swift
/// let engine = AgentEngine(audioProcessing: AudioProcessingDefaults(
///     capture: try .automaticGainControl(),  // speex AGC, its denoiser on too
///     render: try .gain(.init(gainDecibels: 6))))
/// ```
public struct AudioProcessingDefaults: Sendable {
    /// For local audio tracks, before encoding; nil: none.
    public var capture: AudioProcessorFactory?
    /// For remote audio, before sinks; nil: none.
    public var render: AudioProcessorFactory?

    public init(capture: AudioProcessorFactory? = nil, render: AudioProcessorFactory? = nil) {
        self.capture = capture
        self.render = render
    }

    /// No processing unless a track asks for it.
    public static let none = AudioProcessingDefaults()
}
