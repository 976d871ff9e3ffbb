import CVPX

/// Which libvpx codec an encoder or decoder runs. Both share libvpx's API, so one wrapper serves
/// both; only the interface and a few realtime tuning controls differ.
public enum VPXCodec: String, Sendable, Equatable, CaseIterable {
    case vp8 = "VP8"
    case vp9 = "VP9"

    /// The name used in SDP `a=rtpmap` lines (RFC 7741 for VP8, RFC 9628 for VP9).
    public var encodingName: String { rawValue }

    var encoderInterface: OpaquePointer? {
        switch self {
        case .vp8: vpx_codec_vp8_cx()
        case .vp9: vpx_codec_vp9_cx()
        }
    }

    var decoderInterface: OpaquePointer? {
        switch self {
        case .vp8: vpx_codec_vp8_dx()
        case .vp9: vpx_codec_vp9_dx()
        }
    }
}
