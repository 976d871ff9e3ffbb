import AgentCore
import CVPX

/// Which libvpx codec an encoder or decoder runs: the video part of ``MediaCodec``, as a type of
/// its own so an encoder, a decoder or an IVF file cannot be asked for Opus. Both share libvpx's
/// API, so one wrapper serves both; only the interface and a few realtime tuning controls differ.
public enum VPXCodec: Sendable, Equatable, CaseIterable {
    case vp8
    case vp9

    /// The libvpx codec for `codec`; nil for audio and for H.264, which libvpx does not do (its
    /// callers treat nil as an unsupported codec: a decoder counts the frame as unsupported).
    public init?(_ codec: MediaCodec) {
        guard let vpx = Self.allCases.first(where: { $0.mediaCodec == codec }) else { return nil }
        self = vpx
    }

    public var mediaCodec: MediaCodec {
        switch self {
        case .vp8: .vp8
        case .vp9: .vp9
        }
    }

    /// The largest width or height the codec codes: VP8's frame header has 14-bit sizes
    /// (RFC 6386 §9.2); VP9's 16-bit ones reach past ``I420Frame/maxDimension``, which bounds it.
    public var maxDimension: Int {
        switch self {
        case .vp8: 16_383
        case .vp9: I420Frame.maxDimension
        }
    }

    /// The name used in SDP `a=rtpmap` lines (RFC 7741 for VP8, RFC 9628 for VP9).
    public var encodingName: String { mediaCodec.encodingName }

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
