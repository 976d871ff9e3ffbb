import AgentCore
import AgentMedia
import AgentWire

/// What RTP and SDP need to know per codec: the codec table of the media path.
extension MediaCodec {
    /// The payload type we offer when publishing (dynamic range, RFC 3551 §3; the numbers
    /// browsers use, so Janus logs read alike).
    public var defaultPayloadType: UInt8 {
        switch self {
        case .opus: 111
        case .vp8: 96
        case .vp9: 98
        case .h264: 102
        }
    }

    /// The value of an `a=rtpmap` line: `<pt> <encoding>/<clock>[/<channels>]` (RFC 8866 §6.6).
    /// `clockRate` and `channels` default to the codec's own; channels are written for audio only.
    func rtpmap(payloadType: UInt8, clockRate: Int? = nil, channels: Int? = nil) -> String {
        let clock = "\(payloadType) \(encodingName)/\(clockRate ?? self.clockRate)"
        return kind == .audio ? "\(clock)/\(channels ?? self.channels)" : clock
    }

    /// The `a=fmtp` parameters of our offer: Opus asks for in-band FEC (RFC 7587 §6.1); H.264
    /// says what ``H264Packetizer`` sends, packetization-mode 1 (RFC 6184 §8.1), and offers
    /// Constrained Baseline level 3.1 (profile-level-id 42e01f, the one every browser decodes)
    /// with level-asymmetry-allowed (§8.2.2), as browsers write it.
    var offerFormatParameters: String? {
        switch self {
        case .opus: "minptime=10;useinbandfec=1"
        case .h264: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"
        case .vp8, .vp9: nil
        }
    }

    /// How well we receive a format of this codec offered with `a=fmtp` parameters
    /// `formatParameters`: nil when we cannot, else a rank, 0 best, for choosing among the
    /// codec's offered formats.
    ///
    /// H.264 is offered once per profile and packetization mode (RFC 6184 §8.2.1); we take
    /// packetization-mode 1 (single NAL units, STAP-A, FU-A), else mode 0 (single NAL units
    /// only, also the meaning of no parameter), and never mode 2 (interleaved). The profile does
    /// not matter: we record and forward the stream and do not decode it.
    func receiveRank(formatParameters: String?) -> Int? {
        switch self {
        case .opus, .vp8, .vp9:
            return 0
        case .h264:
            switch SDPFormatParameters(formatParameters ?? "")["packetization-mode"] ?? "0" {
            case "1": return 0
            case "0": return 1
            default: return nil
            }
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

    /// Whether ``SendStream`` can packetize this codec: Opus (one packet per frame), VP8
    /// (``VP8Packetizer``) and H.264 (``H264Packetizer``). There is no VP9 packetizer yet.
    public var canPacketize: Bool {
        switch self {
        case .opus, .vp8, .h264: true
        case .vp9: false
        }
    }

    /// A fresh depacketizer that turns this codec's RTP payloads back into frames.
    func makeDepacketizer() -> any Depacketizer {
        switch self {
        case .opus: OpusDepacketizer()
        case .vp8: VP8DepacketizerAdapter()
        case .vp9: VP9DepacketizerAdapter()
        case .h264: H264DepacketizerAdapter()
        }
    }
}
