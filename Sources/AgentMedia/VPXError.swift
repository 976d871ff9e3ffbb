import CVPX

/// Why a libvpx encode or decode failed.
///
/// libvpx returns a `vpx_codec_err_t` and often keeps a more specific sentence in the codec
/// context (`vpx_codec_error_detail`), such as "Truncated packet". Both are kept.
public enum VPXError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libvpx returned `code` (a `vpx_codec_err_t`) from `operation`.
    case library(operation: String, code: UInt32, message: String, detail: String?)
    /// The wrapper refused the arguments before calling libvpx.
    case invalidArgument(String)
    /// The decoder produced a picture that is not 8-bit I420 (e.g. VP9 profile 1-3).
    case unsupportedImageFormat(UInt32)

    public var description: String {
        switch self {
        case .library(let operation, let code, let message, let detail):
            "\(operation) failed: \(message) (\(code))" + (detail.map { ": \($0)" } ?? "")
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        case .unsupportedImageFormat(let format): "unsupported image format \(format), expected I420"
        }
    }

    /// Throws when `status` is not `VPX_CODEC_OK`, with the context's detail text if it has one.
    static func check(_ status: vpx_codec_err_t, _ operation: String,
                      context: UnsafeMutablePointer<vpx_codec_ctx_t>?) throws(VPXError) {
        // 0 is VPX_CODEC_OK, which Swift does not always import by name from this anonymous enum.
        guard status.rawValue != 0 else { return }
        let message = vpx_codec_err_to_string(status).map { String(cString: $0) } ?? "unknown error"
        let detail = context.flatMap { vpx_codec_error_detail($0) }.map { String(cString: $0) }
        throw .library(operation: operation, code: status.rawValue, message: message, detail: detail)
    }
}
