import AgentTransport

/// ICE restart on the answering side (RFC 8445 §9, RFC 8839 §4.4.1.1.1): an offer whose
/// `a=ice-ufrag` differs from the one we know restarts ICE. Janus sends one when asked (VideoRoom
/// subscriber `configure` with `"restart": true`). libnice gets new local credentials and
/// forgets the remote candidates; our answer carries the new credentials and the same local
/// candidates. The DTLS association and SRTP keys stay: only the path is found again, so a
/// connection that failed because ICE did comes back without a new handshake.
extension PeerConnection {
    /// Restarts ICE towards `remote` and returns what our answer must announce.
    func restartICE(remote: RemoteTransportParameters) throws(PeerConnectionError) -> LocalTransportParameters {
        loop.assertInLoop()
        guard let ice, let previous = localParameters else { throw .closed }
        let credentials: ICEAgent.Credentials
        let candidates: [String]
        do {
            credentials = try ice.restart()
            try ice.setRemoteCredentials(.init(ufrag: remote.iceUfrag, password: remote.icePassword))
            candidates = try ice.localCandidateAttributes().map { attribute in
                attribute.hasPrefix("candidate:") ? String(attribute.dropFirst("candidate:".count)) : attribute
            }
        } catch {
            throw .ice(error)
        }
        remoteICEUfrag = remote.iceUfrag
        for candidate in remote.candidates { try? ice.addRemoteCandidate("candidate:" + candidate) }
        var local = previous
        local.iceUfrag = credentials.ufrag
        local.icePassword = credentials.password
        local.candidates = candidates.isEmpty ? previous.candidates : candidates
        localParameters = local
        iceRestarts += 1
        // Back from `failed` (or `connected`) to `connecting`: `connected` follows when the new
        // checks succeed (see handleICEEvent).
        iceFailed = false
        if state != .closed, state != .connecting {
            state = .connecting
            handlers.onState(.connecting)
        }
        return local
    }
}
