import AgentTransport

/// What our side of a PeerConnection puts in every SDP it writes: ICE credentials and
/// candidates (RFC 8839), the DTLS fingerprint and role (RFC 8842).
public struct LocalTransportParameters: Equatable, Sendable {
    public var iceUfrag: String
    public var icePassword: String
    /// `candidate:` attribute values, already formatted.
    public var candidates: [String]
    public var fingerprint: DTLSFingerprint
    /// `active` in an answer to Janus (we are the DTLS client), `actpass` in an offer.
    public var setup: String

    public init(iceUfrag: String, icePassword: String, candidates: [String], fingerprint: DTLSFingerprint, setup: String) {
        self.iceUfrag = iceUfrag
        self.icePassword = icePassword
        self.candidates = candidates
        self.fingerprint = fingerprint
        self.setup = setup
    }
}
