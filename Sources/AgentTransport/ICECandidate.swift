import AgentCore
import Foundation

/// One ICE candidate as carried in an SDP `a=candidate:` attribute.
///
/// RFC 5245 §15.1 (grammar kept by RFC 8839 §5.1):
///
/// ```
/// candidate-attribute = "candidate" ":" foundation SP component-id SP
///                       transport SP priority SP connection-address SP port
///                       SP cand-type [SP rel-addr] [SP rel-port]
///                       *(SP extension-att-name SP extension-att-value)
/// foundation  = 1*32ice-char          ice-char = ALPHA / DIGIT / "+" / "/"
/// component-id = 1*5DIGIT             priority = 1*10DIGIT
/// cand-type   = "typ" SP ("host" / "srflx" / "prflx" / "relay" / token)
/// rel-addr    = "raddr" SP connection-address
/// rel-port    = "rport" SP port
/// ```
///
/// for example `candidate:1 1 UDP 2013266431 10.77.0.1 40021 typ host generation 0`.
///
/// We parse this ourselves rather than trusting libnice's parser alone because libnice only says
/// "NULL" on failure, while signaling input deserves a typed error naming what was wrong.
public struct ICECandidate: Sendable, Equatable, CustomStringConvertible {
    /// RFC 5245 §4.1.1.1 candidate types: the room API's ``ICECandidateType``.
    public typealias Kind = ICECandidateType

    public var foundation: String
    public var component: UInt16
    /// Transport as written ("UDP", "TCP"); compared case-insensitively.
    public var transport: String
    public var priority: UInt32
    public var address: String
    public var port: UInt16
    public var kind: Kind
    public var relatedAddress: String?
    public var relatedPort: UInt16?
    /// Extension attributes in order, such as `generation 0`, `tcptype passive` or `ufrag abcd`.
    public var extensions: [(name: String, value: String)]

    public init(
        foundation: String, component: UInt16, transport: String = "UDP", priority: UInt32,
        address: String, port: UInt16, kind: Kind, relatedAddress: String? = nil,
        relatedPort: UInt16? = nil, extensions: [(name: String, value: String)] = []
    ) {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.kind = kind
        self.relatedAddress = relatedAddress
        self.relatedPort = relatedPort
        self.extensions = extensions
    }

    public var isUDP: Bool { transport.uppercased() == "UDP" }

    /// This candidate as one end of a selected pair.
    public var pairEnd: ICESelectedPair.Candidate {
        ICESelectedPair.Candidate(type: kind, address: address, port: port, transport: transport)
    }

    public static func == (lhs: ICECandidate, rhs: ICECandidate) -> Bool {
        lhs.foundation == rhs.foundation && lhs.component == rhs.component
            && lhs.transport.uppercased() == rhs.transport.uppercased()
            && lhs.priority == rhs.priority && lhs.address == rhs.address && lhs.port == rhs.port
            && lhs.kind == rhs.kind && lhs.relatedAddress == rhs.relatedAddress
            && lhs.relatedPort == rhs.relatedPort
            && lhs.extensions.map(\.name) == rhs.extensions.map(\.name)
            && lhs.extensions.map(\.value) == rhs.extensions.map(\.value)
    }

    /// The attribute value without `a=`: `candidate:…`, as SDP and trickle messages carry it.
    public var sdpAttribute: String {
        var fields = [
            "candidate:\(foundation)", String(component), transport, String(priority), address,
            String(port), "typ", kind.rawValue,
        ]
        if let relatedAddress {
            fields += ["raddr", relatedAddress]
        }
        if let relatedPort {
            fields += ["rport", String(relatedPort)]
        }
        for (name, value) in extensions {
            fields += [name, value]
        }
        return fields.joined(separator: " ")
    }

    public var description: String { sdpAttribute }

    /// Parses `candidate:…`, tolerating a leading `a=` and surrounding whitespace or CRLF.
    public init(sdpAttribute text: String) throws(ICECandidateError) {
        var body = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if body.hasPrefix("a=") { body = body.dropFirst(2) }
        guard body.hasPrefix("candidate:") else { throw .missingPrefix }
        body = body.dropFirst("candidate:".count)
        let tokens = body.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let fieldNames = ["foundation", "component", "transport", "priority", "address", "port", "typ", "type"]
        guard tokens.count >= fieldNames.count else {
            throw .missingField(fieldNames[tokens.count])
        }

        let foundation = tokens[0]
        guard (1...32).contains(foundation.count), foundation.allSatisfy(ICECandidate.isICEChar) else {
            throw .invalidFoundation(foundation)
        }
        guard tokens[1].count <= 5, let component = UInt16(tokens[1]), component >= 1 else {
            throw .invalidComponent(tokens[1])
        }
        let transport = tokens[2]
        guard !transport.isEmpty, transport.allSatisfy(ICECandidate.isTokenChar) else {
            throw .invalidTransport(transport)
        }
        guard tokens[3].count <= 10, let priority = UInt32(tokens[3]) else {
            throw .invalidPriority(tokens[3])
        }
        let address = tokens[4]
        guard !address.isEmpty else { throw .invalidAddress(address) }
        guard let port = UInt16(tokens[5]) else { throw .invalidPort(tokens[5]) }
        guard tokens[6] == "typ" else { throw .unexpectedToken(tokens[6], expected: "typ") }
        guard let kind = Kind(rawValue: tokens[7]) else { throw .invalidType(tokens[7]) }

        var relatedAddress: String?
        var relatedPort: UInt16?
        var extensions: [(name: String, value: String)] = []
        var index = 8
        while index < tokens.count {
            let name = tokens[index]
            guard index + 1 < tokens.count else { throw .missingValue(for: name) }
            let value = tokens[index + 1]
            switch name {
            case "raddr" where relatedAddress == nil && extensions.isEmpty:
                relatedAddress = value
            case "rport" where relatedPort == nil && extensions.isEmpty:
                guard let parsed = UInt16(value) else { throw .invalidPort(value) }
                relatedPort = parsed
            default:
                guard name.allSatisfy(ICECandidate.isTokenChar) else {
                    throw .unexpectedToken(name, expected: "extension name")
                }
                extensions.append((name, value))
            }
            index += 2
        }
        self.init(
            foundation: foundation, component: component, transport: transport, priority: priority,
            address: address, port: port, kind: kind, relatedAddress: relatedAddress,
            relatedPort: relatedPort, extensions: extensions)
    }

    private static func isICEChar(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return character.isLetter || character.isNumber || character == "+" || character == "/"
    }

    /// RFC 4566 token characters (enough for transport and extension names).
    private static func isTokenChar(_ character: Character) -> Bool {
        guard character.isASCII, let scalar = character.unicodeScalars.first else { return false }
        if character.isLetter || character.isNumber { return true }
        return "!#$%&'*+-.^_`{|}~".unicodeScalars.contains(scalar)
    }
}
