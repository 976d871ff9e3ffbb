/// Why a remote-track sink refused its settings.
///
/// Media trouble on a live track (a corrupt packet, a decode error, a late frame) is never an
/// error here: sinks count it and carry on, since one bad packet must not end a track.
public enum RemoteTrackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An output rate outside ``RemoteAudioFormat/supportedSampleRates``.
    case unsupportedSampleRate(Int)
    /// A channel count other than 1 or 2.
    case unsupportedChannels(Int)
    /// Neither Int16 nor Float samples were asked for.
    case noSampleFormat
    /// A gap policy that cannot work (negative, or concealment past what libopus can give).
    case invalidGapPolicy(String)
    /// A stream buffer must hold at least one frame.
    case invalidBufferLimit(Int)
    /// The codec library refused to create a decoder or resampler; its own words.
    case codecUnavailable(String)
    /// The sink's render processor could not be made for its format.
    case processor(AudioProcessorError)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "sample rate \(rate) Hz is not supported (one of "
                + RemoteAudioFormat.supportedSampleRates.map(String.init).joined(separator: ", ") + ")"
        case .unsupportedChannels(let channels): "\(channels) channels are not supported (mono or stereo)"
        case .noSampleFormat: "no sample format requested (Int16, Float or both)"
        case .invalidGapPolicy(let reason): "invalid gap policy: \(reason)"
        case .invalidBufferLimit(let limit): "stream buffer limit \(limit) must be at least 1"
        case .codecUnavailable(let reason): "decoder unavailable: \(reason)"
        case .processor(let error): "audio processor: \(error)"
        }
    }
}
