/// One compressed picture out of ``VPXEncoder``, ready for an RTP packetizer (RFC 7741 for VP8).
public struct VPXEncodedFrame: Sendable, Equatable {
    public var codec: VPXCodec
    public var data: [UInt8]
    /// A keyframe decodes on its own; receivers that sent PLI wait for one.
    public var isKeyframe: Bool
    /// Presentation time in the encoder's timebase (90 kHz by default, the RTP video clock).
    public var pts: Int64
    public var width: Int
    public var height: Int

    public init(codec: VPXCodec, data: [UInt8], isKeyframe: Bool, pts: Int64, width: Int, height: Int) {
        self.codec = codec
        self.data = data
        self.isKeyframe = isKeyframe
        self.pts = pts
        self.width = width
        self.height = height
    }
}
