import Foundation

/// One STUN or TURN server for ICE, from its URI: `turn:10.77.2.2:3478?transport=udp`.
///
/// RFC 7065 §3.1 (TURN) and RFC 7064 §3.1 (STUN), with `host` and `port` from RFC 3986 §3.2.2-3:
///
/// ```
/// turnURI   = scheme ":" host [ ":" port ] [ "?transport=" transport ]
/// scheme    = "turn" / "turns"              (RFC 7064: "stun" / "stuns", and no query)
/// transport = "udp" / "tcp" / transport-ext
/// host      = IP-literal / IPv4address / reg-name
/// port      = *DIGIT                         default 3478 (5349 for turns/stuns)
/// ```
///
/// What agentd takes of it, and why:
/// - `host` must be an IPv4 address. A name would need DNS (RFC 5928's resolution), which agentd
///   never does on its own; an IP literal of IPv6 is refused because the agent's ICE is IPv4 only.
/// - `turns:` and `stuns:` (TLS, DTLS) are refused: libnice's TLS relay type is not usable
///   against standard TURN servers.
/// - The URI is opaque (no `//`) and has no userinfo: the TURN credentials come from
///   `--ice-username`/`--ice-credential` (``ICEServerCredentials``), never from the URL, so a
///   URL can be logged and written to a manifest as it is. An `@` is refused without echoing
///   what surrounds it.
/// - Without `?transport=`, a `turn:` URI means UDP to the server (RFC 7065 §3, RFC 5928 §3 for
///   an IP literal).
///
/// Scheme and transport compare case-insensitively (RFC 3986 §3.1; ABNF strings, RFC 5234 §2.3).
public struct ICEServer: Sendable, Equatable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable, Equatable, Hashable {
        /// A STUN server: server-reflexive candidates (RFC 8489).
        case stun
        /// A TURN server: relayed candidates (RFC 8656), with credentials.
        case turn
    }

    /// How we reach the server (not what is relayed: that is UDP either way).
    public enum Transport: String, Sendable, Equatable, Hashable {
        case udp, tcp
    }

    /// RFC 7065 §3.2 and RFC 7064 §3.2: the port when the URI names none.
    public static let defaultPort: UInt16 = 3478
    /// Longer input is refused before it is looked at.
    public static let maximumLength = 256

    public var scheme: Scheme
    /// Dotted-quad IPv4 address, normalized.
    public var host: String
    public var port: UInt16
    public var transport: Transport

    public init(scheme: Scheme, host: String, port: UInt16 = defaultPort, transport: Transport = .udp) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.transport = transport
    }

    /// Parses one URI as described above.
    public init(parsing text: String) throws(ICEServerError) {
        guard !text.isEmpty else { throw .empty }
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(bytes: text.utf8.count, limit: Self.maximumLength) }
        // Before anything is echoed: userinfo would be a secret in the wrong place.
        guard !text.contains("@") else { throw .userinfo }
        guard let colon = text.firstIndex(of: ":") else { throw .missingScheme }
        let schemeText = text[..<colon].lowercased()
        var rest = text[text.index(after: colon)...]
        switch schemeText {
        case "turn": scheme = .turn
        case "stun": scheme = .stun
        case "turns", "stuns": throw .secureTransportUnsupported(scheme: schemeText)
        default: throw .unknownScheme(ICEServerError.shown(schemeText))
        }
        guard !rest.hasPrefix("//") else { throw .notOpaque }

        var transport = Transport.udp
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            rest = rest[..<question]
            guard scheme == .turn else { throw .queryNotAllowed }
            let prefix = "transport="
            guard query.lowercased().hasPrefix(prefix) else { throw .unsupportedQuery(ICEServerError.shown(String(query))) }
            let value = query.dropFirst(prefix.count).lowercased()
            guard let parsed = Transport(rawValue: value) else { throw .unknownTransport(ICEServerError.shown(value)) }
            transport = parsed
        }
        // An IPv6 literal (RFC 3986 `IP-literal`, or written bare) has colons of its own.
        guard !rest.hasPrefix("["), rest.filter({ $0 == ":" }).count <= 1 else { throw .ipv6Unsupported }

        let hostText: Substring
        var port = Self.defaultPort
        if let portColon = rest.lastIndex(of: ":") {
            hostText = rest[..<portColon]
            port = try Self.port(rest[rest.index(after: portColon)...])
        } else {
            hostText = rest
        }
        guard !hostText.isEmpty else { throw .missingHost }
        host = try Self.ipv4(hostText)
        self.port = port
        self.transport = transport
    }

    /// A comma-separated list of URIs (`--ice-server A,B`, or the option repeated). Blank items
    /// are skipped; "" is no servers. No URI holds a comma (RFC 7065's grammar has none).
    public static func list(parsing text: String) throws(ICEServerError) -> [ICEServer] {
        let limit = 16 * maximumLength
        guard text.utf8.count <= limit else { throw .tooLong(bytes: text.utf8.count, limit: limit) }
        var servers: [ICEServer] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            servers.append(try ICEServer(parsing: trimmed))
        }
        return servers
    }

    /// The canonical URI: scheme, address, port always, and for TURN the transport.
    public var description: String {
        switch scheme {
        case .stun: "stun:\(host):\(port)"
        case .turn: "turn:\(host):\(port)?transport=\(transport.rawValue)"
        }
    }

    /// RFC 3986 §3.2.3, bounded: 1 to 5 digits, 1-65535.
    private static func port(_ text: Substring) throws(ICEServerError) -> UInt16 {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = UInt16(text), value > 0
        else { throw .invalidPort(ICEServerError.shown(String(text))) }
        return value
    }

    /// RFC 3986 §3.2.2 `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`, where a
    /// dec-octet has no leading zero (`010` is not ten). 0.0.0.0 is no server's address.
    private static func ipv4(_ text: Substring) throws(ICEServerError) -> String {
        let looksNumeric = text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
        guard looksNumeric else {
            // A name (RFC 3986 reg-name), or something stranger: either way no address.
            throw .hostName(ICEServerError.shown(String(text)))
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var octets: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.utf8.count), part == "0" || !part.hasPrefix("0"), let octet = UInt8(part) else {
                throw .invalidAddress(ICEServerError.shown(String(text)))
            }
            octets.append(octet)
        }
        guard octets.count == 4, octets != [0, 0, 0, 0] else { throw .invalidAddress(ICEServerError.shown(String(text))) }
        return octets.map(String.init).joined(separator: ".")
    }
}
