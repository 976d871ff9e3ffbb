/// How a refused ICE server URI reads to a person.
extension ICEServerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "the URI is empty"
        case .tooLong(let bytes, let limit): "the URI is \(bytes) bytes long (at most \(limit))"
        case .missingScheme: "no scheme: write turn:HOST:PORT or stun:HOST:PORT"
        case .unknownScheme(let scheme): "unknown scheme '\(scheme)' (turn: or stun:)"
        case .secureTransportUnsupported(let scheme): "\(scheme): (TLS to the server) is not supported; use turn: with ?transport=udp or tcp"
        case .notOpaque: "no '//' after the scheme (RFC 7065): turn:HOST:PORT"
        case .userinfo: "no credentials in the URI; give them with --ice-username and --ice-credential"
        case .missingHost: "no host"
        case .hostName(let name): "'\(name)' is a name; give the server's IPv4 address (agentd does no DNS lookups)"
        case .ipv6Unsupported: "IPv6 servers are not supported; give an IPv4 address"
        case .invalidAddress(let address): "'\(address)' is not an IPv4 address"
        case .invalidPort(let port): "port '\(port)' is not 1-65535"
        case .queryNotAllowed: "a stun: URI takes no '?' query (RFC 7064)"
        case .unsupportedQuery(let query): "unsupported query '\(query)' (only ?transport=udp or ?transport=tcp)"
        case .unknownTransport(let transport): "transport '\(transport)' is not udp or tcp"
        }
    }
}
