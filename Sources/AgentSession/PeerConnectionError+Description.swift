/// How a media connection failure reads to a person.
extension PeerConnectionError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .badOffer(let reason): "unusable SDP: \(reason)"
        case .ice(let error): "ICE: \(error)"
        case .iceFailed: "ICE failed: no candidate pair worked"
        case .dtls(let error): "DTLS: \(error)"
        case .srtp(let error): "SRTP: \(error)"
        case .sctp(let error): "SCTP: \(error)"
        case .dataChannel(let error): "data channel: \(error)"
        case .notConnected: "the media connection is not up"
        case .closed: "the media connection is closed"
        }
    }
}
