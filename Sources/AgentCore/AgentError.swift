import Foundation

/// Why the room API refused or failed, with a stable ``code`` per case: callers and scripts
/// switch on the case or the code, never on the text. Platform errors (``JanusError`` and the
/// transport's) are mapped into these at the edge, in `AgentJanus/AgentError+Janus.swift`.
public enum AgentError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A room (channel) name outside ``ChannelName``'s rule.
    case invalidName(String)
    /// This engine already has a channel in that room on that server.
    case alreadyJoined(server: String, room: String)
    /// A host-only request (send data, publish) on an audience channel.
    case notHost
    /// The channel has left (or is leaving).
    case channelClosed
    /// A host channel with no tracks and no data channel.
    case nothingToPublish
    /// The signaling server could not be reached.
    case unreachable(server: String, reason: String)
    /// The signaling connection closed or stopped answering while joining.
    case signalingFailed(String)
    /// The media connection (ICE, DTLS) did not come up.
    case mediaFailed(String)
    /// The relay policy is set (``ICETransportPolicy/relay``) and no TURN server gave us a relayed
    /// candidate: it refused the credentials or did not answer. Nothing else may carry the media.
    case relayUnavailable(String)
    /// The server refused the token, and the token's own expiry has passed.
    case tokenExpired(expiredAt: Date)
    /// The server refused the token (wrong signature, revoked, missing).
    case tokenRefused(String)
    /// The token does not grant the room plugin.
    case tokenLacksPlugin(String)
    /// The room does not exist (join with `create` to create it).
    case roomNotFound(room: String)
    /// The room refused us: wrong pin or room token.
    case roomRefused(String)
    /// The room does not take these tracks' codecs; `allowed` is what it takes (nil when the
    /// server does not say, e.g. a private room).
    case codecRefused(refused: [TrackOffer], allowed: AllowedCodecs?)
    /// No open data channel to send on.
    case dataChannelUnavailable
    /// Any other refusal by the server, with its code.
    case server(code: Int, reason: String)
    /// An answer the protocol does not allow.
    case protocolViolation(String)
    /// The join asks the platform for something it cannot do (an endpoint of a platform not
    /// built in yet, a listening host where the platform has no roster), refused before anything
    /// is sent.
    case unsupported(String)

    /// Stable, machine-readable name of the case.
    public var code: String {
        switch self {
        case .invalidName: "invalid_name"
        case .alreadyJoined: "already_joined"
        case .notHost: "not_host"
        case .channelClosed: "channel_closed"
        case .nothingToPublish: "nothing_to_publish"
        case .unreachable: "unreachable"
        case .signalingFailed: "signaling_failed"
        case .mediaFailed: "media_failed"
        case .relayUnavailable: "relay_unavailable"
        case .tokenExpired: "token_expired"
        case .tokenRefused: "token_refused"
        case .tokenLacksPlugin: "token_lacks_plugin"
        case .roomNotFound: "room_not_found"
        case .roomRefused: "room_refused"
        case .codecRefused: "codec_refused"
        case .dataChannelUnavailable: "data_channel_unavailable"
        case .server: "server"
        case .protocolViolation: "protocol_violation"
        case .unsupported: "unsupported"
        }
    }

    /// True for refusals (auth, token, pin, missing room, codecs): retrying the same request
    /// would not help.
    public var isRefusal: Bool {
        switch self {
        case .tokenExpired, .tokenRefused, .tokenLacksPlugin, .roomNotFound, .roomRefused, .codecRefused: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .invalidName(let name): "invalid room name '\(name)' (\(ChannelName.ruleDescription))"
        case .alreadyJoined(let server, let room): "already in room '\(room)' on \(server)"
        case .notHost: "only a host channel can do that"
        case .channelClosed: "the channel has left"
        case .nothingToPublish: "a host channel needs a track or a data channel"
        case .unreachable(let server, let reason): "cannot reach \(server): \(reason)"
        case .signalingFailed(let reason): "signaling failed: \(reason)"
        case .mediaFailed(let reason): "the media connection failed: \(reason)"
        case .relayUnavailable(let reason): "no TURN relay: \(reason)"
        case .tokenExpired(let date): "the token expired at \(date)"
        case .tokenRefused(let reason): "the token was refused: \(reason)"
        case .tokenLacksPlugin(let reason): "the token does not grant the room plugin: \(reason)"
        case .roomNotFound(let room): "room '\(room)' does not exist"
        case .roomRefused(let reason): "the room refused us: \(reason)"
        case .codecRefused(let refused, let allowed):
            "the room does not allow \(refused.map { "\($0.offeredCodecNames) \($0.kind.rawValue)" }.joined(separator: " and ")) "
                + "(it allows: \(allowed.map(String.init(describing:)) ?? "unknown"))"
        case .dataChannelUnavailable: "no open data channel"
        case .server(let code, let reason): "server error \(code): \(reason)"
        case .protocolViolation(let what): "unexpected answer: \(what)"
        case .unsupported(let what): "not supported: \(what)"
        }
    }
}
