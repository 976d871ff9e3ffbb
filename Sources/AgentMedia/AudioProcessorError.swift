/// Why an ``AudioProcessor`` could not be made or refused a frame. Settings are checked when a
/// processor or factory is made, so a bad one is an error there, never a trap on the media path.
public enum AudioProcessorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A rate outside ``AudioProcessingFormat/sampleRateRange`` or not a multiple of 100 Hz.
    case unsupportedSampleRate(Int)
    /// A channel count outside ``AudioProcessingFormat/channelRange``.
    case unsupportedChannels(Int)
    /// A rate this processor cannot work at, though the format allows it (speex_preprocess
    /// takes only ``SpeexPreprocessor/supportedSampleRates``).
    case sampleRateNotSupported(processor: String, rate: Int, supported: [Int])
    /// A setting outside its range, named as in the settings type.
    case settingOutOfRange(name: String, value: Double, range: ClosedRange<Double>)
    /// A processor made for another format than the one it is to run at (a factory's processor,
    /// a member of a chain).
    case formatMismatch(expected: AudioProcessingFormat, got: AudioProcessingFormat)
    /// A frame of the wrong number of interleaved samples.
    case frameLength(expected: Int, got: Int)
    /// A C library could not make its state.
    case library(String)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            "audio processing at \(rate) Hz is not supported (\(AudioProcessingFormat.sampleRateRange), a multiple of 100 Hz)"
        case .unsupportedChannels(let channels):
            "audio processing on \(channels) channels is not supported (\(AudioProcessingFormat.channelRange))"
        case .sampleRateNotSupported(let processor, let rate, let supported):
            "\(processor) cannot run at \(rate) Hz (it takes \(supported.map(String.init).joined(separator: ", ")) Hz)"
        case .settingOutOfRange(let name, let value, let range):
            "\(name) \(value) is outside \(range.lowerBound)...\(range.upperBound)"
        case .formatMismatch(let expected, let got): "a processor for \(got) cannot run on frames of \(expected)"
        case .frameLength(let expected, let got): "a frame of \(got) samples, expected \(expected)"
        case .library(let what): what
        }
    }

    /// Throws ``settingOutOfRange(name:value:range:)`` unless `value` lies in `range` (NaN never does).
    public static func check(_ name: String, _ value: Double, in range: ClosedRange<Double>) throws(AudioProcessorError) {
        guard range.contains(value) else { throw .settingOutOfRange(name: name, value: value, range: range) }
    }
}
