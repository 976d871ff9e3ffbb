import AgentCore
import AgentSession
import AgentTransport
import Foundation

/// How a WHIP endpoint's errors read in the room API: the one place a WHIP, HTTP or
/// media-connection error of this adapter becomes an ``AgentError``. A refusal names the
/// endpoint and what it said, never the token.
extension AgentError {
    static func fromWHIP(_ error: any Error, endpoint: String) -> AgentError {
        switch error {
        case let agent as AgentError:
            return agent
        case let whip as WHIPError:
            return AgentError(whip, endpoint: endpoint)
        case let http as HTTPClientError:
            return AgentError(WHIPError.http(http), endpoint: endpoint)
        case let peer as PeerConnectionError:
            return AgentError(peer)
        default:
            return .protocolViolation("\(error)")
        }
    }

    init(_ error: WHIPError, endpoint: String) {
        switch error {
        case .http(let http):
            switch http {
            case .connectionRefused, .unreachable, .timedOut, .failed:
                self = .unreachable(server: endpoint, reason: http.description)
            case .invalidURL:
                self = .unsupported("a WHIP endpoint that is not an http:// or https:// URL: \(endpoint)")
            case .responseTooLarge:
                self = .protocolViolation("the WHIP endpoint's \(http.description)")
            case .cancelled, .closed:
                self = .channelClosed
            }
        case .status(let code, _) where code == 401 || code == 403:
            self = .tokenRefused("\(endpoint) answered \(error)")
        case .status(404, _):
            self = .roomNotFound(room: endpoint)
        case .status(let code, _) where code >= 500:
            self = .signalingFailed("the WHIP endpoint \(endpoint) answered \(error)")
        case .status(let code, let body):
            self = .server(code: code, reason: body.isEmpty ? "the WHIP endpoint refused the offer" : body)
        case .badLocation, .badAnswer, .alreadyPublished:
            self = .protocolViolation("WHIP endpoint \(endpoint): \(error)")
        case .tracksRefused(let tracks):
            self = .codecRefused(refused: tracks, allowed: nil)
        case .connectionFailed(let reason):
            self = .mediaFailed(reason)
        }
    }
}
