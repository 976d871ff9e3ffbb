import AgentCore

/// A decoder for any video codec agentd receives: libvpx for VP8 and VP9, libopenh264 for H.264.
/// One input is one frame as the depacketizer assembles it (an access unit in Annex B form for
/// H.264).
public enum VideoDecoder: Sendable {
    case vpx(VPXDecoder)
    case openH264(OpenH264Decoder)

    public init(codec: MediaCodec, threads: Int = 1) throws(VideoCodecError) {
        if let vpx = VPXCodec(codec) {
            do { self = .vpx(try VPXDecoder(codec: vpx, threads: threads)) } catch { throw .vpx(error) }
        } else if codec == .h264 {
            do { self = .openH264(try OpenH264Decoder()) } catch { throw .openH264(error) }
        } else {
            throw .unsupported(codec)
        }
    }

    public var codec: MediaCodec {
        switch self {
        case .vpx(let decoder): decoder.codec.mediaCodec
        case .openH264: .h264
        }
    }

    /// The pictures one frame produced (usually one).
    public func decode(_ data: [UInt8]) throws(VideoCodecError) -> [I420Frame] {
        switch self {
        case .vpx(let decoder):
            do { return try decoder.decode(data) } catch { throw .vpx(error) }
        case .openH264(let decoder):
            do { return try decoder.decode(data) } catch { throw .openH264(error) }
        }
    }
}
