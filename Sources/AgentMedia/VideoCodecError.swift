import AgentCore

/// Why a video encode or decode failed, whichever library did it.
public enum VideoCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    case vpx(VPXError)
    case openH264(OpenH264Error)
    /// No library here decodes or encodes this codec.
    case unsupported(MediaCodec)

    public var description: String {
        switch self {
        case .vpx(let error): "libvpx: \(error)"
        case .openH264(let error): "libopenh264: \(error)"
        case .unsupported(let codec): "\(codec.name) cannot be decoded or encoded here"
        }
    }
}
