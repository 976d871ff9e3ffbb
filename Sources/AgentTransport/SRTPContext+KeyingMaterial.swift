/// The SRTP master keys and salts for both directions, cut out of the DTLS exporter output
/// (label "EXTRACTOR-dtls_srtp") as RFC 5764 §4.2 lays it out:
///
///     +------------------+------------------+-------------------+-------------------+
///     | client write key | server write key | client write salt | server write salt |
///     +------------------+------------------+-------------------+-------------------+
///       16 octets          16 octets          14 (12 for GCM)     14 (12 for GCM)
///
/// The DTLS client sends with the client key, so which half is "local" depends on the role the
/// SDP `a=setup` attribute gave us.
public struct SRTPKeyingMaterial: Sendable, Equatable, CustomStringConvertible {
    public let profile: SRTPProfile
    public let localMasterKey: [UInt8]
    public let localMasterSalt: [UInt8]
    public let remoteMasterKey: [UInt8]
    public let remoteMasterSalt: [UInt8]

    /// Splits `exported` (``SRTPProfile/keyingMaterialLength`` octets: 60 for AES-CM, 56 for GCM).
    public init(exported: [UInt8], profile: SRTPProfile, role: DTLSRole) throws(SRTPError) {
        guard exported.count == profile.keyingMaterialLength else {
            throw .invalidKeyingMaterialLength(expected: profile.keyingMaterialLength, got: exported.count)
        }
        let keyLength = profile.masterKeyLength
        let saltLength = profile.masterSaltLength
        let clientKey = Array(exported[0..<keyLength])
        let serverKey = Array(exported[keyLength..<(2 * keyLength)])
        let clientSalt = Array(exported[(2 * keyLength)..<(2 * keyLength + saltLength)])
        let serverSalt = Array(exported[(2 * keyLength + saltLength)..<(2 * keyLength + 2 * saltLength)])
        self.profile = profile
        switch role {
        case .client:
            (localMasterKey, localMasterSalt) = (clientKey, clientSalt)
            (remoteMasterKey, remoteMasterSalt) = (serverKey, serverSalt)
        case .server:
            (localMasterKey, localMasterSalt) = (serverKey, serverSalt)
            (remoteMasterKey, remoteMasterSalt) = (clientKey, clientSalt)
        }
    }

    /// The context that protects what we send.
    public func makeOutboundContext() throws(SRTPError) -> SRTPContext {
        try SRTPContext(profile: profile, direction: .outbound, masterKey: localMasterKey, masterSalt: localMasterSalt)
    }

    /// The context that unprotects what the peer sends.
    public func makeInboundContext() throws(SRTPError) -> SRTPContext {
        try SRTPContext(profile: profile, direction: .inbound, masterKey: remoteMasterKey, masterSalt: remoteMasterSalt)
    }

    /// Never prints key material: logs must not carry secrets.
    public var description: String { "SRTPKeyingMaterial(\(profile), keys redacted)" }
}
