/// How an ICE agent's failure reads to a person.
extension ICEAgentError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .creationFailed(let reason): "cannot create the ICE agent: \(reason)"
        case .allowList(let error): "the ICE allow-list: \(error)"
        case .invalidLocalAddress(let address): "'\(address)' is not a usable local address"
        case .gatheringFailed: "gathering ICE candidates failed"
        case .configuration(let error): "ICE servers: \(error)"
        case .serverRejected(let server): "libnice refused the ICE server \(server)"
        case .noRelayCandidate(let servers, let timedOut):
            "no relayed candidate from \(servers.joined(separator: ", ")): "
                + (timedOut ? "the TURN server did not answer in time" : "the TURN server refused the allocation (wrong credentials?) or the connection")
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
