/// Which local candidates ICE may use: W3C WebRTC's `RTCIceTransportPolicy` (§4.2.5), with its
/// names. `relay` sends media only through a TURN server, so the peer never learns our own
/// addresses and a network that allows only the relay still works.
public enum ICETransportPolicy: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Host, server-reflexive and relayed candidates.
    case all
    /// Relayed candidates only (TURN): no host or server-reflexive candidate is offered or
    /// checked.
    case relay
}
