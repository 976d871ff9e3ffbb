import AgentCore
import AgentWire

/// The offering side (publishing to Janus): we gather, offer send-only tracks and a data
/// section with `a=setup:actpass`, and the answer's `a=setup` decides our DTLS role.
extension PeerConnection {
    /// Gathers candidates and returns our offer. The connection is ICE-controlling.
    ///
    /// - Parameter dataChannelLabel: adds a data section and, once SCTP is up, opens a channel
    ///   with this label; nil offers no data. No default: the label is the platform's choice.
    public func offer(tracks: [TrackOffer], dataChannelLabel: String?) async throws(PeerConnectionError)
        -> SessionDescription
    {
        let result: Result<SessionDescription, PeerConnectionError> = await withCheckedContinuation { continuation in
            loop.execute {
                self.createOffer(tracks: tracks, dataChannelLabel: dataChannelLabel) { continuation.resume(returning: $0) }
            }
        }
        return try result.get()
    }

    func createOffer(
        tracks: [TrackOffer], dataChannelLabel: String?, completion: @escaping (Result<SessionDescription, PeerConnectionError>) -> Void
    ) {
        loop.assertInLoop()
        guard state == .new else {
            completion(.failure(state == .closed ? .closed : .badOffer("this connection already negotiated")))
            return
        }
        requestedDataChannelLabel = dataChannelLabel
        self.dataChannelLabel = dataChannelLabel
        isOfferer = true
        pendingNegotiation = PendingNegotiation(
            complete: { [unowned self] gathered in
                var local = gathered
                local.setup = "actpass"
                localParameters = local
                let dataMid = dataChannelLabel == nil ? nil : String(tracks.count)
                completion(.success(OfferBuilder.offer(tracks: tracks, dataMid: dataMid, local: local)))
            },
            fail: { error in completion(.failure(error)) })
        do {
            try startGathering(controlling: true)
        } catch {
            pendingNegotiation = nil
            completion(.failure(error))
        }
    }

    /// Applies the peer's answer to our offer: its ICE credentials and candidates, its
    /// fingerprint, and our DTLS role (`active` answer → we are the server, `passive` → client).
    public func acceptAnswer(_ answer: SessionDescription) async throws(PeerConnectionError) {
        let result: Result<Void, PeerConnectionError> = await withCheckedContinuation { continuation in
            loop.execute {
                continuation.resume(returning: Result { () throws(PeerConnectionError) in try self.applyAnswer(answer) })
            }
        }
        try result.get()
    }

    func applyAnswer(_ answer: SessionDescription) throws(PeerConnectionError) {
        loop.assertInLoop()
        guard isOfferer, localParameters != nil else { throw .badOffer("no offer of ours to answer") }
        let remote = try RemoteTransportParameters(offer: answer)
        switch remote.setup.lowercased() {
        case "active": dtlsRole = .server
        case "passive": dtlsRole = .client
        default: throw .badOffer("an answer must say a=setup:active or passive, not \(remote.setup)")
        }
        if dataChannelLabel != nil, !answer.media.contains(where: { $0.kind == "application" && !$0.isRejected }) {
            dataChannelLabel = nil
        }
        try startTransport(remote: remote)
    }
}
