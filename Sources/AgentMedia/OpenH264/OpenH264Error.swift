/// Why a libopenh264 encode or decode failed.
public enum OpenH264Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// libopenh264 returned `code` from `operation` (a `CM_RETURN` for the encoder, a
    /// `DECODING_STATE` bit set for the decoder).
    case library(operation: String, code: Int)
    /// The wrapper refused the arguments before calling libopenh264.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .library(let operation, let code): "\(operation) failed (\(code))"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        }
    }
}
