import COpus

/// Why an Opus encode or decode failed.
///
/// libopus reports failures as small negative integers (`OPUS_BAD_ARG`, `OPUS_INVALID_PACKET`, ...).
/// They are kept together with libopus's own text so a log line says what went wrong without a
/// lookup table, and so tests can match the exact code.
public enum OpusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libopus returned a negative status from `operation`.
    case library(operation: String, code: Int32, message: String)
    /// The wrapper refused the arguments before calling libopus (wrong channel count, a PCM buffer
    /// that is not a whole Opus frame, ...). `code` is `OPUS_BAD_ARG` so callers can treat both alike.
    case invalidArgument(String)

    /// The libopus status code (`OPUS_BAD_ARG` for ``invalidArgument(_:)``).
    public var code: Int32 {
        switch self {
        case .library(_, let code, _): code
        case .invalidArgument: OPUS_BAD_ARG
        }
    }

    public var description: String {
        switch self {
        case .library(let operation, let code, let message): "\(operation) failed: \(message) (\(code))"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        }
    }

    /// Turns a libopus status into an error when it is negative; returns it unchanged otherwise.
    @discardableResult
    static func check(_ status: Int32, _ operation: String) throws(OpusError) -> Int32 {
        guard status < 0 else { return status }
        throw .library(operation: operation, code: status, message: message(for: status))
    }

    static func message(for code: Int32) -> String {
        guard let text = opus_strerror(code) else { return "unknown error" }
        return String(cString: text)
    }
}
