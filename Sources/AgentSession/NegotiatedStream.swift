import AgentCore

/// One media section as offer/answer settled it: what arrives (or leaves) under which mid, with
/// which payload type and clock, so the router and depacketizers can be set up.
public struct NegotiatedStream: Equatable, Sendable {
    /// A media kind, or the data channel section.
    public enum Kind: String, Sendable {
        case audio, video, data

        public init(_ kind: MediaKind) {
            switch kind {
            case .audio: self = .audio
            case .video: self = .video
            }
        }

        /// The media kind; nil for the data section.
        public var mediaKind: MediaKind? {
            switch self {
            case .audio: .audio
            case .video: .video
            case .data: nil
            }
        }
    }

    public var mid: String
    public var kind: Kind
    /// nil for data, and for a section we rejected.
    public var codec: MediaCodec?
    public var payloadType: UInt8?
    public var clockRate: Int
    public var channels: Int
    /// The retransmission payload type (RFC 4588) paired with `payloadType`, if offered.
    public var rtxPayloadType: UInt8?
    /// SSRCs the offer announced for this section: media first, then RTX (from ssrc-group FID).
    public var ssrcs: [UInt32]
    /// The header extension id carrying the MID (RFC 8843 §15.2), when negotiated.
    public var midExtensionID: UInt8?
    /// The header extension id carrying the sender's audio level (RFC 6464,
    /// `urn:ietf:params:rtp-hdrext:ssrc-audio-level`), when negotiated (audio only).
    public var audioLevelExtensionID: UInt8?
    /// Why the section was rejected (port 0 in the answer), or nil when accepted.
    public var rejection: String?
    /// Whether media arrives here: the offerer sends (`sendonly`, `sendrecv`) and we answered
    /// `recvonly`. An accepted section the offerer holds `inactive` (a Janus subscription whose
    /// publisher unpublished) is kept, answered `inactive`, and carries nothing until an offer
    /// makes it send again.
    public var isReceiving: Bool

    public init(
        mid: String, kind: Kind, codec: MediaCodec? = nil, payloadType: UInt8? = nil, clockRate: Int = 0,
        channels: Int = 0, rtxPayloadType: UInt8? = nil, ssrcs: [UInt32] = [], midExtensionID: UInt8? = nil,
        audioLevelExtensionID: UInt8? = nil, rejection: String? = nil, isReceiving: Bool = true
    ) {
        self.audioLevelExtensionID = audioLevelExtensionID
        self.mid = mid
        self.kind = kind
        self.codec = codec
        self.payloadType = payloadType
        self.clockRate = clockRate
        self.channels = channels
        self.rtxPayloadType = rtxPayloadType
        self.ssrcs = ssrcs
        self.midExtensionID = midExtensionID
        self.rejection = rejection
        self.isReceiving = isReceiving && rejection == nil
    }

    public var isAccepted: Bool { rejection == nil }
}
