/// Which side of the DTLS handshake we play. The SDP `a=setup` attribute decides it
/// (RFC 5763 §5, RFC 4145 §4): `active` opens the connection and is the DTLS client, `passive`
/// waits and is the DTLS server. An offer says `actpass` and leaves the choice to the answerer.
public enum DTLSRole: Sendable, Equatable {
    case client
    case server

    /// Our role from our own `a=setup` value once negotiation settled it; nil for `actpass`
    /// (still undecided) or anything unknown.
    public init?(localSetup value: String) {
        switch value.lowercased() {
        case "active": self = .client
        case "passive": self = .server
        default: return nil
        }
    }

    /// Our role when we answer an offer whose `a=setup` was `value`: `actpass` and `passive`
    /// offers make us active (the JSEP default, RFC 8829 §5.3.1), an `active` offer makes us passive.
    public init?(answeringRemoteSetup value: String) {
        switch value.lowercased() {
        case "actpass", "passive": self = .client
        case "active": self = .server
        default: return nil
        }
    }

    /// The `a=setup` value that announces this role in an answer.
    public var sdpSetup: String {
        switch self {
        case .client: "active"
        case .server: "passive"
        }
    }
}
