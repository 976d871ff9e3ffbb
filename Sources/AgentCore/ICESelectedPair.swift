/// The candidate pair ICE selected for a media connection (RFC 8445 §2, "selected pair"): the
/// path the media takes. `local.type == .relay` means it goes through a TURN server.
public struct ICESelectedPair: Sendable, Equatable, CustomStringConvertible {
    /// One end of the pair.
    public struct Candidate: Sendable, Equatable, CustomStringConvertible {
        public var type: ICECandidateType
        public var address: String
        public var port: UInt16
        /// "udp" or "tcp", lower case.
        public var transport: String

        public init(type: ICECandidateType, address: String, port: UInt16, transport: String = "udp") {
            self.type = type
            self.address = address
            self.port = port
            self.transport = transport.lowercased()
        }

        /// `relay 10.77.2.2:50000/udp`.
        public var description: String { "\(type.rawValue) \(address):\(port)/\(transport)" }
    }

    public var local: Candidate
    public var remote: Candidate

    public init(local: Candidate, remote: Candidate) {
        self.local = local
        self.remote = remote
    }

    /// True when either end is a TURN relay.
    public var isRelayed: Bool { local.type == .relay || remote.type == .relay }

    /// `local relay 10.77.2.2:50000/udp, remote host 10.77.0.2:40000/udp`.
    public var description: String { "local \(local), remote \(remote)" }
}
