/// Why an ICE server URI (``ICEServer/init(parsing:)``) was refused.
///
/// The associated texts are pieces of the input, cut to ``shownLimit`` printable ASCII
/// characters, and only pieces that cannot hold a secret: a URI with an `@` (userinfo) is
/// refused as ``userinfo`` before any piece is taken from it.
public enum ICEServerError: Error, Equatable, Sendable {
    case empty
    case tooLong(bytes: Int, limit: Int)
    /// No `scheme:` at all.
    case missingScheme
    case unknownScheme(String)
    /// `turns:` or `stuns:`: TLS and DTLS to the server are not supported.
    case secureTransportUnsupported(scheme: String)
    /// `turn://…`: RFC 7065 URIs are opaque, `turn:HOST:PORT`.
    case notOpaque
    /// `user:pass@` in the URI: credentials have options of their own.
    case userinfo
    case missingHost
    /// A DNS name: agentd resolves none; give the server's IPv4 address.
    case hostName(String)
    case ipv6Unsupported
    case invalidAddress(String)
    /// Not 1-65535.
    case invalidPort(String)
    /// A query on a `stun:` URI (RFC 7064 has none).
    case queryNotAllowed
    /// A query other than `transport=` (RFC 7065 has no other).
    case unsupportedQuery(String)
    /// `transport=` other than udp or tcp.
    case unknownTransport(String)

    /// How much of a piece of input an error shows.
    public static let shownLimit = 64

    /// `text` as an error may show it: printable ASCII only (others become `?`), at most
    /// ``shownLimit`` characters.
    static func shown(_ text: String) -> String {
        let printable = text.unicodeScalars.prefix(shownLimit).map { scalar in
            scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F ? Character(scalar) : "?"
        }
        return String(printable) + (text.unicodeScalars.count > shownLimit ? "…" : "")
    }
}
