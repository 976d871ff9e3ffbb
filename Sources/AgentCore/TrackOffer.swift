/// One track we send, as offered (``OfferBuilder`` writes it into the SDP offer). A value of the
/// vocabulary because a codec refusal (``AgentError/codecRefused(refused:allowed:)``) names the
/// refused tracks.
///
/// A track may offer more than one codec: ``codec`` first, then ``alternatives``, and the
/// answer picks one (a Janus VideoRoom takes the first of its room's list that the offer has).
/// The published track (``OfferBuilder/negotiated(_:by:)``) then carries the chosen codec and
/// no alternatives.
public struct TrackOffer: Equatable, Sendable {
    public var mid: String
    public var kind: MediaKind
    public var codec: MediaCodec
    public var payloadType: UInt8
    public var ssrc: UInt32
    /// More codecs of the same kind the track can send, in our order of preference after
    /// ``codec``; each goes under its default payload type.
    public var alternatives: [MediaCodec]

    public init(mid: String, kind: MediaKind, codec: MediaCodec, payloadType: UInt8, ssrc: UInt32, alternatives: [MediaCodec] = []) {
        self.mid = mid
        self.kind = kind
        self.codec = codec
        self.payloadType = payloadType
        self.ssrc = ssrc
        self.alternatives = alternatives
    }

    public var clockRate: Int { codec.clockRate }

    /// Every codec offered: ``codec``, then the ``alternatives`` of its kind not already named.
    public var offeredCodecs: [MediaCodec] {
        alternatives.reduce(into: [codec]) { codecs, alternative in
            if alternative.kind == kind, !codecs.contains(alternative) { codecs.append(alternative) }
        }
    }

    /// `VP8` or, with alternatives, `VP8/H264`: how messages name what the track offered.
    public var offeredCodecNames: String { offeredCodecs.map(\.encodingName).joined(separator: "/") }
}
