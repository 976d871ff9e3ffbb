/// Sorts datagrams arriving on the one ICE 5-tuple of a bundled PeerConnection by their first
/// octet (RFC 7983 §7, updating RFC 5764 §5.1.2):
///
///                      +----------------+
///                      |        [0..3] -+--> STUN
///                      |                |
///                      |      [16..19] -+--> ZRTP
///          packet -->  |                |
///                      |      [20..63] -+--> DTLS
///                      |                |
///                      |      [64..79] -+--> TURN channel
///                      |                |
///                      |    [128..191] -+--> RTP/RTCP
///                      +----------------+
///
/// RTP and RTCP share a port (RFC 5761 §4): RTCP packet types 192–223 (SR 200, RR 201, SDES 202,
/// BYE 203, APP 204, RTPFB 205, PSFB 206, …) sit in the second octet, where RTP has the marker
/// bit and a payload type. WebRTC payload types stay out of 64–95 so that marker + PT never
/// falls in that range.
public enum PacketDemuxer {
    public enum Kind: Sendable, Equatable {
        case stun
        case zrtp
        case dtls
        case turnChannel
        case rtp
        case rtcp
        /// Empty, too short to tell, or a first octet no protocol claims.
        case unknown
    }

    /// The protocol of one datagram. Never traps on any input.
    public static func classify(_ datagram: some Collection<UInt8>) -> Kind {
        var bytes = datagram.makeIterator()
        guard let first = bytes.next() else { return .unknown }
        switch first {
        case 0...3: return .stun
        case 16...19: return .zrtp
        case 20...63: return .dtls
        case 64...79: return .turnChannel
        case 128...191:
            guard let second = bytes.next() else { return .unknown }
            return (192...223).contains(second) ? .rtcp : .rtp
        default: return .unknown
        }
    }
}
