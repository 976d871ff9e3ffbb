/// Why an ``ICEAgent`` operation failed.
public enum ICEAgentError: Error, Equatable, Sendable {
    /// libnice could not create the agent or its stream.
    case creationFailed(String)
    /// The allow list matched no usable address.
    case allowList(ICEAllowListError)
    /// An address from the allow list was not a usable IPv4 address for libnice.
    case invalidLocalAddress(String)
    case gatheringFailed
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
