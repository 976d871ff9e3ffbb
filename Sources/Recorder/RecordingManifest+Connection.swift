import Agent

extension RecordingManifest {
    /// How the recorder's media reached it: the ICE settings it joined with and the candidate
    /// pair ICE selected (RFC 8445 §2). `local_type` `relay` means through a TURN server.
    ///
    ///     "connection": {"ice_policy": "relay", "ice_servers": ["turn:10.77.2.2:3478?transport=udp"],
    ///       "selected_pair": {"local_type": "relay", "local_address": "10.77.2.2:49160", "remote_type": "host",
    ///                         "remote_address": "10.77.0.2:40011", "transport": "udp", "relayed": true, "at_ms": 640},
    ///       "pairs_selected": 1}
    ///
    /// No credential is in it: the servers are their URIs, which carry none (``ICEServer``).
    public struct Connection: Codable, Sendable, Equatable {
        /// ``ICETransportPolicy``'s name: `all` or `relay`.
        public var icePolicy: String
        public var iceServers: [String]
        /// The last pair selected; `null` until the media connection is up.
        public var selectedPair: SelectedPair?
        /// Pairs selected so far: the first connection, and again after each reconnect or ICE
        /// restart.
        public var pairsSelected: Int

        public init(icePolicy: String = ICETransportPolicy.all.rawValue, iceServers: [String] = [], selectedPair: SelectedPair? = nil,
                    pairsSelected: Int = 0) {
            self.icePolicy = icePolicy
            self.iceServers = iceServers
            self.selectedPair = selectedPair
            self.pairsSelected = pairsSelected
        }

        /// The settings of `ice`, no pair yet.
        public init(ice: ICEConfiguration) {
            self.init(icePolicy: ice.policy.rawValue, iceServers: ice.serverURIs)
        }

        enum CodingKeys: String, CodingKey {
            case icePolicy = "ice_policy"
            case iceServers = "ice_servers"
            case selectedPair = "selected_pair"
            case pairsSelected = "pairs_selected"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(icePolicy, forKey: .icePolicy)
            try container.encode(iceServers, forKey: .iceServers)
            try container.encode(selectedPair, forKey: .selectedPair)  // null until connected
            try container.encode(pairsSelected, forKey: .pairsSelected)
        }
    }

    /// One selected pair: both ends' type and address, the transport, and when (ms from t=0).
    public struct SelectedPair: Codable, Sendable, Equatable {
        public var localType: String
        public var localAddress: String
        public var remoteType: String
        public var remoteAddress: String
        public var transport: String
        /// True when either end is a TURN relay.
        public var relayed: Bool
        public var atMs: Int64

        public init(_ pair: ICESelectedPair, atMs: Int64) {
            localType = pair.local.type.rawValue
            localAddress = "\(pair.local.address):\(pair.local.port)"
            remoteType = pair.remote.type.rawValue
            remoteAddress = "\(pair.remote.address):\(pair.remote.port)"
            transport = pair.local.transport
            relayed = pair.isRelayed
            self.atMs = atMs
        }

        enum CodingKeys: String, CodingKey {
            case transport, relayed
            case localType = "local_type"
            case localAddress = "local_address"
            case remoteType = "remote_type"
            case remoteAddress = "remote_address"
            case atMs = "at_ms"
        }
    }
}
