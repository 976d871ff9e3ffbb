import AgentCore

/// A realtime encoder for any video codec agentd sends: libvpx for VP8 and VP9, libopenh264 for
/// H.264 (Annex B access units), with the same knobs (bitrate, keyframe on demand).
public enum VideoEncoder: Sendable {
    case vpx(VPXEncoder)
    case openH264(OpenH264Encoder)

    /// One encoded frame.
    public struct Frame: Sendable, Equatable {
        public var bytes: [UInt8]
        public var isKeyframe: Bool
    }

    public init(codec: MediaCodec, bitrate: Int, framesPerSecond: Int = 30, keyframeInterval: Int = 3000) throws(VideoCodecError) {
        if let vpx = VPXCodec(codec) {
            do {
                self = .vpx(try VPXEncoder(configuration: .init(codec: vpx, bitrate: bitrate, framesPerSecond: framesPerSecond,
                                                                keyframeInterval: keyframeInterval)))
            } catch { throw .vpx(error) }
        } else if codec == .h264 {
            do {
                self = .openH264(try OpenH264Encoder(configuration: .init(bitrate: bitrate, framesPerSecond: framesPerSecond,
                                                                          keyframeInterval: keyframeInterval)))
            } catch { throw .openH264(error) }
        } else {
            throw .unsupported(codec)
        }
    }

    public var codec: MediaCodec {
        switch self {
        case .vpx(let encoder): encoder.codec.mediaCodec
        case .openH264: .h264
        }
    }

    public func forceKeyframe() {
        switch self {
        case .vpx(let encoder): encoder.forceKeyframe()
        case .openH264(let encoder): encoder.forceKeyframe()
        }
    }

    /// Encodes picture number `index` (frames count up; times in the encoder's own clock).
    public func encode(_ picture: I420Frame, index: Int64, framesPerSecond: Int = 30) throws(VideoCodecError) -> [Frame] {
        switch self {
        case .vpx(let encoder):
            let ticks = Int64(encoder.configuration.timebase) / Int64(max(1, framesPerSecond))
            do {
                return try encoder.encode(picture, pts: index * ticks).map { Frame(bytes: $0.data, isKeyframe: $0.isKeyframe) }
            } catch { throw .vpx(error) }
        case .openH264(let encoder):
            do {
                return try encoder.encode(picture, timestampMs: index * 1000 / Int64(max(1, framesPerSecond)))
                    .map { [Frame(bytes: $0.bytes, isKeyframe: $0.isKeyframe)] } ?? []
            } catch { throw .openH264(error) }
        }
    }
}
