import AgentCore
import CAgentShims
import CNice
import Foundation

/// The STUN and TURN servers and the transport policy (RFC 8656, W3C `iceTransportPolicy`).
///
/// **TURN**: each `turn:` server is handed to libnice with `nice_agent_set_relay_info` before
/// gathering (UDP or TCP to the server; the relayed transport is UDP either way), which allocates
/// a relayed candidate with the long-term credentials (RFC 8489 §9.2).
/// **Relay policy**: libnice's `force-relay` property keeps host and server-reflexive candidates
/// out of the local candidate list and out of the connectivity checks, so the SDP carries only
/// relayed candidates and no pair but a relayed one is tried. ``ICEAgent/localCandidates()``
/// filters by type as well, so an SDP can never carry another.
extension ICEAgent {
    /// Hands the STUN and TURN servers (already checked) and the policy to libnice, before
    /// gathering. libnice copies the strings.
    static func configureServers(
        _ agent: OpaquePointer, streamID: guint, ice: ICEConfiguration, credentials: ICEServerCredentials?
    ) throws(ICEAgentError) {
        let object = UnsafeMutableRawPointer(agent)
        for server in ice.stunServers {
            agent_g_object_set_string(object, "stun-server", server.host)
            agent_g_object_set_uint(object, "stun-server-port", guint(server.port))
        }
        for server in ice.turnServers {
            guard let credentials else { throw .configuration(.missingCredentials) }
            let type = server.transport == .tcp ? NICE_RELAY_TYPE_TURN_TCP : NICE_RELAY_TYPE_TURN_UDP
            guard nice_agent_set_relay_info(
                agent, streamID, componentID, server.host, guint(server.port), credentials.username, credentials.credential, type) != 0
            else { throw .serverRejected(server.description) }
        }
        if ice.policy == .relay { agent_g_object_set_boolean(object, "force-relay", 1) }
    }


    /// After ``Event/gatheringDone``: under the relay policy, throws when no TURN server gave a
    /// relayed candidate (it refused the credentials, or did not answer in time). An SDP without
    /// candidates would only fail later, and for a reason nobody could read from it.
    public func checkCandidatesForPolicy() throws(ICEAgentError) {
        guard ice.policy == .relay else { return }
        guard try localCandidates().isEmpty else { return }
        throw .noRelayCandidate(servers: ice.turnServers.map(\.description), timedOut: false)
    }
}
