import AgentCore

/// Why an ``ICEAgent`` operation failed. No case carries a TURN credential.
public enum ICEAgentError: Error, Equatable, Sendable {
    /// libnice could not create the agent or its stream.
    case creationFailed(String)
    /// The allow list matched no usable address.
    case allowList(ICEAllowListError)
    /// An address from the allow list was not a usable IPv4 address for libnice.
    case invalidLocalAddress(String)
    case gatheringFailed
    /// The servers, policy or credentials cannot work together.
    case configuration(ICEConfigurationError)
    /// libnice refused a server (by its URI).
    case serverRejected(String)
    /// Under the relay policy, gathering ended (or ran out of time) without a relayed candidate
    /// from any of these TURN servers: each refused the allocation (wrong credentials, quota)
    /// or did not answer.
    case noRelayCandidate(servers: [String], timedOut: Bool)
    /// RFC 5245 §15.4: ufrag is 4–256 ice-chars, password 22–256 ice-chars.
    case invalidCredentials(String)
    case invalidCandidate(ICECandidateError)
    /// With rtcp-mux and bundle only component 1 exists.
    case unsupportedComponent(UInt16)
    /// Only UDP candidates are used (ICE-TCP is off).
    case unsupportedTransport(String)
    /// libnice refused a candidate our parser accepted (for example an mDNS host name).
    case candidateRejected(String)
    case sendFailed(length: Int)
    case closed
}
