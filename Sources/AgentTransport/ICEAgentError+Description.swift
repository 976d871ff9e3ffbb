/// How an ICE agent's failure reads to a person.
extension ICEAgentError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .creationFailed(let reason): "cannot create the ICE agent: \(reason)"
        case .allowList(let error): "the ICE allow-list: \(error)"
        case .invalidLocalAddress(let address): "'\(address)' is not a usable local address"
        case .gatheringFailed: "gathering ICE candidates failed"
        case .invalidCredentials(let reason): "bad ICE credentials: \(reason)"
        case .invalidCandidate(let error): "bad ICE candidate: \(error)"
        case .unsupportedComponent(let component): "ICE component \(component) is not supported"
        case .unsupportedTransport(let transport): "ICE transport \(transport) is not supported"
        case .candidateRejected(let candidate): "the ICE agent rejected the candidate \(candidate)"
        case .sendFailed(let length): "sending \(length) bytes over ICE failed"
        case .closed: "the ICE agent is closed"
        }
    }
}
