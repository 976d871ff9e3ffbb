import AgentTransport

/// Why a PeerConnection could not be set up or failed later.
public enum PeerConnectionError: Error, Equatable, Sendable {
    case badOffer(String)
    case ice(ICEAgentError)
    case iceFailed
    case dtls(DTLSError)
    case srtp(SRTPError)
    case sctp(SCTPError)
    case dataChannel(DataChannelRegistry.Error)
    case notConnected
    case closed
}
