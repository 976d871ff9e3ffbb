/// How one connection's ICE gathers and which candidates it may use: where host candidates come
/// from (``addresses``), the STUN and TURN servers, and the transport policy. W3C WebRTC's
/// `RTCConfiguration` `iceServers` and `iceTransportPolicy` (§4.2.1), plus agentd's allow list.
///
/// A ``RoomJoin`` holds one (``RoomJoin/ice``) and every layer below takes it as it is, down to
/// the ICE agent. It holds no secret: the TURN servers' credentials are ``ICEServerCredentials``
/// in ``RoomCredentials``, and each layer takes them beside it.
public struct ICEConfiguration: Sendable, Equatable {
    /// IPv4 addresses to gather host candidates on: the allow list's
    /// (`ICEAllowList.resolve()`). TURN and STUN requests leave from these too.
    public var addresses: [String]
    public var servers: [ICEServer]
    public var policy: ICETransportPolicy

    /// libnice takes at most 8 TURN servers per component, and one STUN server.
    public static let maximumServers = 8

    public init(addresses: [String] = [], servers: [ICEServer] = [], policy: ICETransportPolicy = .all) {
        self.addresses = addresses
        self.servers = servers
        self.policy = policy
    }

    public var turnServers: [ICEServer] { servers.filter { $0.scheme == .turn } }
    public var stunServers: [ICEServer] { servers.filter { $0.scheme == .stun } }

    /// Refuses what cannot work before anything is sent: the relay policy without a TURN
    /// server, TURN servers without usable credentials, more servers than libnice takes.
    public func check(credentials: ICEServerCredentials?) throws(ICEConfigurationError) {
        guard servers.count <= Self.maximumServers else { throw .tooManyServers(servers.count, limit: Self.maximumServers) }
        guard stunServers.count <= 1 else { throw .moreThanOneSTUNServer }
        if policy == .relay, turnServers.isEmpty { throw .relayWithoutTURNServer }
        if !turnServers.isEmpty {
            guard let credentials else { throw .missingCredentials }
            if let problem = credentials.problem { throw .unusableCredentials(problem) }
        }
    }

    /// The servers as their URIs, for logs and the manifest (they hold no secret).
    public var serverURIs: [String] { servers.map(\.description) }
}
