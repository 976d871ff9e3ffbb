import Foundation

/// The lab's TURN server (`scripts/lab turn up`: Debian's coturn in the lab namespace, with the
/// direct path from its client address to the namespace dropped by nftables), read from the
/// `turn.env` it writes: beside the lab's env file (`.lab/turn/turn.env`) or machine-wide
/// (`/run/agentd-lab/turn.env`).
extension LabEnvironment {
    /// What a TURN test needs: the server's URIs, the credentials, and the client interface
    /// (`--ice-allow`) from which Janus is reachable only through the relay.
    public struct TURN: Sendable {
        /// `turn:10.77.2.2:3478?transport=udp`.
        public let url: String
        /// The same server over TCP.
        public let urlTCP: String
        public let username: String
        public let credential: String
        /// `agentd-turn0`: give it to agentd as `--ice-allow`.
        public let clientInterface: String
        public let clientIP: String
    }

    public static let turn: Result<TURN, Unavailable> = loadTURN()

    /// True when a TURN interop test should run: the lab and its TURN server are up, or the lab
    /// is required (the test then fails in ``turnServer()`` if the server is missing).
    public static var shouldRunTURN: Bool {
        guard shouldRun else { return false }
        if case .success = turn { return true }
        return isRequired
    }

    /// The lab's TURN server, or a clear failure.
    public static func turnServer() throws -> TURN {
        try turn.get()
    }

    private static let turnKeys = ["TURN_URL", "TURN_URL_TCP", "TURN_USERNAME", "TURN_CREDENTIAL", "TURN_CLIENT_IFACE", "TURN_CLIENT_IP"]

    private static func loadTURN() -> Result<TURN, Unavailable> {
        serviceValues("turn/turn.env", machineWide: "/run/agentd-lab/turn.env", hint: "no TURN server: run scripts/lab turn up") { values in
            turnKeys.allSatisfy { !(values[$0] ?? "").isEmpty }
        }.map { values in
            TURN(
                url: values["TURN_URL"] ?? "", urlTCP: values["TURN_URL_TCP"] ?? "", username: values["TURN_USERNAME"] ?? "",
                credential: values["TURN_CREDENTIAL"] ?? "", clientInterface: values["TURN_CLIENT_IFACE"] ?? "",
                clientIP: values["TURN_CLIENT_IP"] ?? "")
        }
    }
}
