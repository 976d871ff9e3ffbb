/// Later offers on a live connection: Janus re-offers a multistream subscription whenever
/// publishers come or go (`updated` events). The transport stays as it is (same ICE
/// credentials, DTLS association and SRTP keys); only the media sections change.
extension PeerConnection {
    func acceptRenegotiation(
        _ offer: SessionDescription,
        completion: @escaping (Result<(SessionDescription, [NegotiatedStream]), PeerConnectionError>) -> Void
    ) {
        guard let local = localParameters else {
            // The first negotiation is still gathering; a second offer now is a signaling bug.
            completion(.failure(.badOffer("an offer arrived before the first answer was made")))
            return
        }
        let negotiated: (answer: SessionDescription, streams: [NegotiatedStream])
        do {
            negotiated = try AnswerBuilder.answer(to: offer, local: local)
        } catch {
            completion(.failure(.badOffer("\(error)")))
            return
        }
        if let remote = try? RemoteTransportParameters(offer: offer), let ice {
            // An ICE restart would change the credentials; we do not support that here.
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
