import AgentCore

extension TrackOffer {
    /// A track of `codec`'s kind under its default payload type (the codec table, ``MediaCodec/defaultPayloadType``).
    public init(mid: String, codec: MediaCodec, ssrc: UInt32, alternatives: [MediaCodec] = []) {
        self.init(mid: mid, kind: codec.kind, codec: codec, payloadType: codec.defaultPayloadType, ssrc: ssrc, alternatives: alternatives)
    }

    /// The formats the offer names for this track, in order: ``codec`` under ``payloadType``,
    /// then each alternative under its default payload type, leaving out one whose number is
    /// taken already.
    public var offeredFormats: [(codec: MediaCodec, payloadType: UInt8)] {
        offeredCodecs.reduce(into: []) { formats, codec in
            let payloadType = codec == self.codec ? payloadType : codec.defaultPayloadType
            if !formats.contains(where: { $0.payloadType == payloadType }) { formats.append((codec, payloadType)) }
        }
    }
}
