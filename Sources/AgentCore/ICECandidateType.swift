/// RFC 8445 §5.1.1 candidate types, as SDP writes them (`typ host`, RFC 8839 §5.1).
public enum ICECandidateType: String, Sendable, Equatable, Hashable, CaseIterable {
    /// An address of one of our interfaces.
    case host
    /// Our address as a STUN server saw it (server reflexive).
    case srflx
    /// Our address as the peer saw it, learnt from a connectivity check (peer reflexive).
    case prflx
    /// An address on a TURN server that relays for us.
    case relay
}
