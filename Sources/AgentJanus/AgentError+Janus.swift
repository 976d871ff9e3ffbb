import AgentCore
import AgentSession
import Foundation

/// How Janus's errors read in the room API: the one place a Janus, publisher or media-connection
/// error becomes an ``AgentError``. Everything above (the CLI, bots, the daemon) reads only
/// AgentError.
extension AgentError {
    /// The ``AgentError`` for an error of a Janus join or publish. A 403 for a token whose own
    /// expiry has passed is ``tokenExpired(expiredAt:)``; Janus's answer alone does not say so.
    static func fromJanus(_ error: Error, server: String, room: String, token: String?, now: Date = Date()) -> AgentError {
        switch error {
        case let agent as AgentError:
            return agent
        case let publisher as JanusPublisherError:
            switch publisher {
            case .codecRefused(let refused, let allowed): return .codecRefused(refused: refused, allowed: allowed)
            case .connectionFailed(let reason): return .mediaFailed(reason)
            case .dataChannelUnavailable: return .dataChannelUnavailable
            case .notStarted: return .channelClosed
            }
        case let janus as JanusError:
            return AgentError(janus, server: server, room: room, token: token, now: now)
        case let peer as PeerConnectionError:
            return AgentError(peer)
        default:
            return .protocolViolation("\(error)")
        }
    }

    /// The ``AgentError`` for a Janus signaling error: a join's, or a request's made straight on a
    /// ``JanusSession`` (listing a room's participants). The connection dropping, a timeout and a
    /// session or handle gone are all the signaling failing.
    /// - Parameter token: the token sent, to tell an expired one from a refused one; nil when none.
    public init(_ error: JanusError, server: String, room: String, token: String?, now: Date = Date()) {
        switch error {
        case .connectFailed(let reason):
            self = .unreachable(server: server, reason: reason)
        case .connectionClosed(let code, let reason):
            self = .signalingFailed("Janus closed the connection (\(code) \(reason))")
        case .timeout(let request):
            self = .signalingFailed("Janus did not answer '\(request)' in time")
        case .server(JanusError.Code.unauthorized, let reason):
            if let expiry = token.flatMap({ JanusToken($0).expiry }), expiry <= now {
                self = .tokenExpired(expiredAt: expiry)
            } else {
                self = .tokenRefused(reason)
            }
        case .server(JanusError.Code.unauthorizedPlugin, let reason):
            self = .tokenLacksPlugin(reason)
        case .plugin(JanusError.Code.noSuchRoom, _):
            self = .roomNotFound(room: room)
        case .plugin(JanusError.Code.roomUnauthorized, let reason):
            self = .roomRefused(reason)
        case .server(let code, let reason), .plugin(let code, let reason):
            self = .server(code: code, reason: reason)
        case .malformed(let what):
            self = .protocolViolation(what)
        case .gone(let what):
            self = .signalingFailed("Janus \(what) is gone")
        }
    }
}
