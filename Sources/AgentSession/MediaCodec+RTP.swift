import AgentCore

/// What RTP and SDP need to know per codec: the codec table of the media path.
extension MediaCodec {
    /// The payload type we offer when publishing (dynamic range, RFC 3551 §3; the numbers
    /// browsers use, so Janus logs read alike).
    public var defaultPayloadType: UInt8 {
        switch self {
        case .opus: 111
        case .vp8: 96
        case .vp9: 98
        }
    }

    /// The value of an `a=rtpmap` line: `<pt> <encoding>/<clock>[/<channels>]` (RFC 8866 §6.6).
    /// `clockRate` and `channels` default to the codec's own; channels are written for audio only.
    func rtpmap(payloadType: UInt8, clockRate: Int? = nil, channels: Int? = nil) -> String {
        let clock = "\(payloadType) \(encodingName)/\(clockRate ?? self.clockRate)"
        return kind == .audio ? "\(clock)/\(channels ?? self.channels)" : clock
    }

    /// The `a=fmtp` parameters of our offer: Opus asks for in-band FEC (RFC 7587 §6.1).
    var offerFormatParameters: String? {
        switch self {
        case .opus: "minptime=10;useinbandfec=1"
        case .vp8, .vp9: nil
        }
    }

    /// The `a=rtcp-fb` kinds of our offer (RFC 4585 §4.2, RFC 5104 §7.1): video asks for NACK,
    /// PLI and FIR; we send Opus without feedback.
    var offerFeedback: [String] {
        switch kind {
        case .audio: []
        case .video: Self.videoFeedback
        }
    }

    /// NACK, PLI and FIR, which a video receiver needs to recover from loss.
    static let videoFeedback = ["nack", "nack pli", "ccm fir"]

    /// Whether ``SendStream`` can packetize this codec: Opus (one packet per frame) and VP8
    /// (``VP8Packetizer``). There is no VP9 packetizer yet.
    public var canPacketize: Bool {
        switch self {
        case .opus, .vp8: true
        case .vp9: false
        }
    }

    /// A fresh depacketizer that turns this codec's RTP payloads back into frames.
    func makeDepacketizer() -> any Depacketizer {
        switch self {
        case .opus: OpusDepacketizer()
        case .vp8: VP8DepacketizerAdapter()
        case .vp9: VP9DepacketizerAdapter()
        }
    }
}
