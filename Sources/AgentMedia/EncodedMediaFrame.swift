import AgentCore

/// One stored, already-compressed frame read out of a media file (IVF, Ogg Opus), ready to be
/// repacketized for RTP without decoding. File players send these as they are, so the timestamp is
/// the file's own (pts × timebase, or the Ogg granule position), never a sum of durations.
public struct EncodedMediaFrame: Sendable, Equatable {
    /// The compressed frame exactly as stored: one Opus packet, or one VP8/VP9 frame.
    public var bytes: [UInt8]
    /// Presentation time from the file, in nanoseconds from the start of the stream. For Opus it
    /// already accounts for pre-skip, so the first packet(s) may start before zero.
    public var timestampNanoseconds: Int64
    /// A keyframe decodes on its own. Every Opus packet is one.
    public var isKeyframe: Bool
    /// The codec of `bytes`, which picks the RTP packetizer a player uses.
    public var codec: MediaCodec

    public init(bytes: [UInt8], timestampNanoseconds: Int64, isKeyframe: Bool, codec: MediaCodec) {
        self.bytes = bytes
        self.timestampNanoseconds = timestampNanoseconds
        self.isKeyframe = isKeyframe
        self.codec = codec
    }
}
