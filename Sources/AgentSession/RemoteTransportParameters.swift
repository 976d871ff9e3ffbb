import AgentTransport
import AgentWire

/// The peer's ICE credentials and candidates (RFC 8839) and DTLS fingerprint and role
/// (RFC 8842), read from its SDP. With BUNDLE they are taken from the first usable section, and
/// may sit at the session level instead (both are allowed).
public struct RemoteTransportParameters: Equatable, Sendable {
    public var iceUfrag: String
    public var icePassword: String
    public var candidates: [String]
    public var fingerprint: DTLSFingerprint
    public var setup: String

    public init(offer description: SessionDescription) throws(PeerConnectionError) {
        let index = description.media.firstIndex { !$0.isRejected } ?? 0
        guard let ufrag = description.attribute("ice-ufrag", media: index),
            let password = description.attribute("ice-pwd", media: index)
        else { throw .badOffer("no ICE credentials (a=ice-ufrag / a=ice-pwd)") }
        guard let fingerprintValue = description.attribute("fingerprint", media: index) else {
            throw .badOffer("no DTLS fingerprint (a=fingerprint)")
        }
        do {
            fingerprint = try DTLSFingerprint(sdpValue: fingerprintValue)
        } catch {
            throw .badOffer("unusable a=fingerprint: \(error)")
        }
        iceUfrag = ufrag
        icePassword = password
        setup = description.attribute("setup", media: index) ?? "actpass"
        var seen = Set<String>()
        candidates = description.media.flatMap { $0.attributes(named: "candidate") }.filter { seen.insert($0).inserted }
    }
}
