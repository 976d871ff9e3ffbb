/// Why an ``ICEConfiguration`` cannot be used (``ICEConfiguration/check(credentials:)``). No case
/// carries a credential.
public enum ICEConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooManyServers(Int, limit: Int)
    /// libnice has one STUN server per agent.
    case moreThanOneSTUNServer
    /// The relay policy with no TURN server leaves no candidate at all.
    case relayWithoutTURNServer
    /// TURN servers need the long-term credentials (RFC 8656 §9.2).
    case missingCredentials
    case unusableCredentials(String)

    public var description: String {
        switch self {
        case .tooManyServers(let count, let limit): "\(count) ICE servers (at most \(limit))"
        case .moreThanOneSTUNServer: "more than one stun: server (libnice takes one)"
        case .relayWithoutTURNServer: "the relay policy needs a turn: server"
        case .missingCredentials: "a turn: server needs a username and a credential"
        case .unusableCredentials(let reason): "unusable TURN credentials: \(reason)"
        }
    }
}
