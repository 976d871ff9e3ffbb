import AgentWire

/// Later offers on a live connection: Janus re-offers a multistream subscription whenever
/// publishers come or go (`updated` events). The transport stays as it is (same ICE
/// credentials, DTLS association and SRTP keys); only the media sections change. An offer with
/// new ICE credentials restarts ICE (PeerConnection+ICERestart.swift).
extension PeerConnection {
    func acceptRenegotiation(
        _ offer: SessionDescription,
        completion: @escaping (Result<(SessionDescription, [NegotiatedStream]), PeerConnectionError>) -> Void
    ) {
        guard var local = localParameters else {
            // The first negotiation is still gathering; a second offer now is a signaling bug.
            completion(.failure(.badOffer("an offer arrived before the first answer was made")))
            return
        }
        let remote = try? RemoteTransportParameters(offer: offer)
        let restartsICE = remote.map { $0.iceUfrag != remoteICEUfrag } ?? false
        if let remote, restartsICE {
            do {
                local = try restartICE(remote: remote)
            } catch {
                completion(.failure(error))
                return
            }
        } else if iceFailed {
            completion(.failure(.badOffer("ICE failed and the offer does not restart it")))
            return
        }
        let negotiated: (answer: SessionDescription, streams: [NegotiatedStream])
        do {
            negotiated = try AnswerBuilder.answer(to: offer, local: local)
        } catch {
            completion(.failure(.badOffer("\(error)")))
            return
        }
        if let remote, !restartsICE, let ice {
            for candidate in remote.candidates { try? ice.addRemoteCandidate("candidate:" + candidate) }
        }
        let hasData = negotiated.streams.contains { $0.kind == .data && $0.isAccepted }
        if hasData, dataChannelLabel == nil, let label = requestedDataChannelLabel {
            dataChannelLabel = label
            if case .connected = state { startSCTP() }
        }
        completion(.success((negotiated.answer, negotiated.streams)))
    }
}
