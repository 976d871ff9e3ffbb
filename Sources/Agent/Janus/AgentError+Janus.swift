import Foundation

/// How Janus's errors read in the room API.
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
            return fromJanus(janus, server: server, room: room, token: token, now: now)
        case let peer as PeerConnectionError:
            return .mediaFailed("\(peer)")
        default:
            return .protocolViolation("\(error)")
        }
    }

    private static func fromJanus(_ error: JanusError, server: String, room: String, token: String?, now: Date) -> AgentError {
        switch error {
        case .connectFailed(let reason):
            return .unreachable(server: server, reason: reason)
        case .connectionClosed(let code, let reason):
            return .signalingFailed("Janus closed the connection (\(code) \(reason))")
        case .timeout(let request):
            return .signalingFailed("Janus did not answer '\(request)' in time")
        case .server(JanusError.Code.unauthorized, let reason):
            if let expiry = token.flatMap({ JanusToken($0).expiry }), expiry <= now { return .tokenExpired(expiredAt: expiry) }
            return .tokenRefused(reason)
        case .server(JanusError.Code.unauthorizedPlugin, let reason):
            return .tokenLacksPlugin(reason)
        case .plugin(JanusError.Code.noSuchRoom, _):
            return .roomNotFound(room: room)
        case .plugin(JanusError.Code.roomUnauthorized, let reason):
            return .roomRefused(reason)
        case .server(let code, let reason), .plugin(let code, let reason):
            return .server(code: code, reason: reason)
        case .malformed(let what):
            return .protocolViolation(what)
        case .gone(let what):
            return .signalingFailed("Janus \(what) is gone")
        }
    }
}
