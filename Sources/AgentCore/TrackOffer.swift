/// One track we send, as offered (``OfferBuilder`` writes it into the SDP offer). A value of the
/// vocabulary because a codec refusal (``AgentError/codecRefused(refused:allowed:)``) names the
/// refused tracks.
public struct TrackOffer: Equatable, Sendable {
    public var mid: String
    public var kind: MediaKind
    public var codec: MediaCodec
    public var payloadType: UInt8
    public var ssrc: UInt32

    public init(mid: String, kind: MediaKind, codec: MediaCodec, payloadType: UInt8, ssrc: UInt32) {
        self.mid = mid
        self.kind = kind
        self.codec = codec
        self.payloadType = payloadType
        self.ssrc = ssrc
    }

    public var clockRate: Int { codec.clockRate }
}
