import AgentCore

extension TrackOffer {
    /// A track of `codec`'s kind under its default payload type (the codec table, ``MediaCodec/defaultPayloadType``).
    public init(mid: String, codec: MediaCodec, ssrc: UInt32) {
        self.init(mid: mid, kind: codec.kind, codec: codec, payloadType: codec.defaultPayloadType, ssrc: ssrc)
    }
}
