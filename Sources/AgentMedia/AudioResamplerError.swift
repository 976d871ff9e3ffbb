import CSampleRate

/// Why an ``AudioResampler`` refused its settings or its input.
public enum AudioResamplerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A sample rate outside ``AudioResampler/supportedRates``.
    case unsupportedRate(Int)
    /// A channel count other than 1 or 2.
    case unsupportedChannels(Int)
    /// An interleaved buffer whose length is not a whole number of frames (an odd count in stereo).
    case partialFrame(sampleCount: Int, channels: Int)
    /// libsamplerate returned a non-zero status from `operation`, with its own text.
    case library(operation: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .unsupportedRate(let rate):
            "sample rate \(rate) Hz is not supported (\(AudioResampler.supportedRates.lowerBound)...\(AudioResampler.supportedRates.upperBound) Hz)"
        case .unsupportedChannels(let channels): "\(channels) channels are not supported (mono or stereo)"
        case .partialFrame(let sampleCount, let channels):
            "\(sampleCount) samples is not a whole number of \(channels)-channel frames"
        case .library(let operation, let code, let message): "\(operation) failed: \(message) (\(code))"
        }
    }

    /// Turns a libsamplerate status into an error when it is not zero.
    static func check(_ status: Int32, _ operation: String) throws(AudioResamplerError) {
        guard status != 0 else { return }
        throw .library(operation: operation, code: status, message: message(for: status))
    }

    static func message(for status: Int32) -> String {
        src_strerror(status).map { String(cString: $0) } ?? "unknown error"
    }
}
