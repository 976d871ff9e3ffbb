import AgentCore

/// A realtime encoder for any video codec agentd sends: libvpx for VP8 and VP9, libopenh264 for
/// H.264 (Annex B access units), with the same knobs (bitrate, keyframe on demand).
///
/// Either library's encoder is created on the first picture and re-created when a picture of
/// another size arrives; the first frame at the new size is a keyframe (for H.264 an IDR with a
/// new SPS and PPS in front). ``sizeRefusal(codec:width:height:)`` says beforehand which sizes
/// a codec cannot code.
public enum VideoEncoder: Sendable {
    case vpx(VPXEncoder)
    case openH264(OpenH264Encoder)

    /// The codecs an encoder can be made for.
    public static let codecs: [MediaCodec] = [.vp8, .vp9, .h264]

    /// One encoded frame.
    public struct Frame: Sendable, Equatable {
        public var bytes: [UInt8]
        public var isKeyframe: Bool
    }

    /// - Parameters:
    ///   - keyframeInterval: the longest run of frames between automatic keyframes.
    ///   - speed: libvpx's realtime speed (VP8 and VP9 only; libopenh264's realtime mode has one
    ///     speed).
    public init(codec: MediaCodec, bitrate: Int, framesPerSecond: Int = 30, keyframeInterval: Int = 3000, speed: Int = 8,
                threads: Int = 1) throws(VideoCodecError) {
        if let vpx = VPXCodec(codec) {
            do {
                self = .vpx(try VPXEncoder(configuration: .init(codec: vpx, bitrate: bitrate, framesPerSecond: framesPerSecond,
                                                                keyframeInterval: keyframeInterval, speed: speed, threads: threads)))
            } catch { throw .vpx(error) }
        } else if codec == .h264 {
            do {
                self = .openH264(try OpenH264Encoder(configuration: .init(bitrate: bitrate, framesPerSecond: framesPerSecond,
                                                                          keyframeInterval: keyframeInterval, threads: threads)))
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

    /// Why `codec` cannot code a `width` x `height` picture, or nil when it can: VP8's 14-bit
    /// size fields (RFC 6386 §9.2), I420Frame's bound for VP9, and for H.264 what
    /// ``OpenH264Encoder/sizeRefusal(width:height:)`` says.
    public static func sizeRefusal(codec: MediaCodec, width: Int, height: Int) -> String? {
        if let vpx = VPXCodec(codec) {
            guard width <= vpx.maxDimension, height <= vpx.maxDimension else {
                return "\(codec.encodingName) codes at most \(vpx.maxDimension) pixels a side"
            }
            return nil
        }
        return codec == .h264 ? OpenH264Encoder.sizeRefusal(width: width, height: height) : "\(codec.name) is not a video codec"
    }

    public func forceKeyframe() {
        switch self {
        case .vpx(let encoder): encoder.forceKeyframe()
        case .openH264(let encoder): encoder.forceKeyframe()
        }
    }

    /// Changes the target bitrate from the next frame on (e.g. after a REMB estimate).
    public func setBitrate(_ bitsPerSecond: Int) throws(VideoCodecError) {
        switch self {
        case .vpx(let encoder):
            do { try encoder.setBitrate(bitsPerSecond) } catch { throw .vpx(error) }
        case .openH264(let encoder):
            do { try encoder.setBitrate(bitsPerSecond) } catch { throw .openH264(error) }
        }
    }

    /// Encodes picture number `index` (frames count up; times in the encoder's own clock).
    public func encode(_ picture: I420Frame, index: Int64, framesPerSecond: Int = 30) throws(VideoCodecError) -> [Frame] {
        try encode(picture, timestamp: index, clockRate: max(1, framesPerSecond))
    }

    /// Encodes a picture shown at `timestamp` ticks of a `clockRate` Hz clock (an RTP time at
    /// 90 kHz, say); times must increase, as the rate control paces by them. Returns what the
    /// library emitted: normally one frame, none when its rate control skipped the picture.
    public func encode(_ picture: I420Frame, timestamp: Int64, clockRate: Int) throws(VideoCodecError) -> [Frame] {
        let clockRate = Int64(max(1, clockRate))
        switch self {
        case .vpx(let encoder):
            let pts = Self.rescale(timestamp, from: clockRate, to: Int64(encoder.configuration.timebase))
            do {
                return try encoder.encode(picture, pts: pts).map { Frame(bytes: $0.data, isKeyframe: $0.isKeyframe) }
            } catch { throw .vpx(error) }
        case .openH264(let encoder):
            do {
                return try encoder.encode(picture, timestampMs: Self.rescale(timestamp, from: clockRate, to: 1000))
                    .map { [Frame(bytes: $0.bytes, isKeyframe: $0.isKeyframe)] } ?? []
            } catch { throw .openH264(error) }
        }
    }

    /// `ticks` of a `from` Hz clock in a `to` Hz clock, rounded down; whole seconds and the
    /// remainder are scaled apart, so no product overflows for any 64-bit time.
    static func rescale(_ ticks: Int64, from: Int64, to: Int64) -> Int64 {
        guard from != to else { return ticks }
        let (seconds, remainder) = ticks.quotientAndRemainder(dividingBy: from)
        return seconds.multipliedReportingOverflow(by: to).partialValue &+ remainder * to / from
    }
}
