/// What a finished DTLS-SRTP handshake hands to SRTP (RFC 5764 §4.2).
public struct DTLSHandshakeResult: Sendable, Equatable, CustomStringConvertible {
    /// The DTLS-SRTP protection profile both sides agreed on in `use_srtp`.
    public let profile: SRTPProfile
    /// `SSL_export_keying_material("EXTRACTOR-dtls_srtp")`, ``SRTPProfile/keyingMaterialLength``
    /// octets: identical on both ends of the association.
    public let keyingMaterial: [UInt8]
    /// The verified fingerprint of the peer's certificate.
    public let remoteFingerprint: DTLSFingerprint

    /// The keying material split into our and the peer's SRTP master keys for `role`.
    public func srtpKeys(role: DTLSRole) throws(SRTPError) -> SRTPKeyingMaterial {
        try SRTPKeyingMaterial(exported: keyingMaterial, profile: profile, role: role)
    }

    /// Never prints key material.
    public var description: String {
        "DTLSHandshakeResult(\(profile), \(keyingMaterial.count) octets of keying material, peer \(remoteFingerprint))"
    }
}

/// Something the DTLS state machine reports to its owner.
public enum DTLSEvent: Sendable, Equatable {
    /// The handshake finished and the peer's fingerprint matched.
    case handshakeCompleted(DTLSHandshakeResult)
    /// The handshake or the association failed; the transport is dead.
    case failed(DTLSError)
    /// One decrypted DTLS application data record (SCTP packets ride on these, RFC 8261).
    case applicationData([UInt8])
    /// The peer sent close_notify.
    case closedByPeer
}

/// The result of feeding the state machine: datagrams to put on the wire, in order, and events.
public struct DTLSOutput: Sendable, Equatable {
    public var datagrams: [[UInt8]] = []
    public var events: [DTLSEvent] = []

    public init(datagrams: [[UInt8]] = [], events: [DTLSEvent] = []) {
        self.datagrams = datagrams
        self.events = events
    }
}
