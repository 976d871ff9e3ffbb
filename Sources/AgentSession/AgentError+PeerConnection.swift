import AgentCore
import AgentTransport

/// How a media connection's failure reads in the room API, for every platform adapter.
extension AgentError {
    /// ``AgentError/relayUnavailable(_:)`` when the relay policy found no TURN relay (nothing
    /// else may carry the media, so it is its own case), else ``AgentError/mediaFailed(_:)``.
    public init(_ error: PeerConnectionError) {
        switch error {
        case .ice(let ice):
            self.init(ice)
        default:
            self = .mediaFailed("\(error)")
        }
    }

    /// The same for the ICE agent's own errors (the relay check before a join); servers that
    /// cannot work together are ``AgentError/unsupported(_:)``.
    public init(_ error: ICEAgentError) {
        switch error {
        case .noRelayCandidate:
            self = .relayUnavailable("\(error)")
        case .configuration(let problem):
            // Refused before anything was sent: the join asks for what cannot work.
            self = .unsupported("ICE servers: \(problem)")
        default:
            self = .mediaFailed("\(PeerConnectionError.ice(error))")
        }
    }
}
