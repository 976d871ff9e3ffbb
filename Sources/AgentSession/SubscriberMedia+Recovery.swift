/// What an ICE restart of the subscriber connection needs from the media: our candidates to
/// trickle again, and a wait until media flows on the new path.
extension SubscriberMedia {
    /// The current link's local ICE candidates (SDP attribute values, without `candidate:`);
    /// empty when there is no connection.
    public func localCandidates() async throws -> [String] {
        guard let peer else { return [] }
        return try await loop.submit { peer.localParameters?.candidates ?? [] }
    }

    /// Polls until the connection is connected again and, when media is expected, RTP flows
    /// again: our side's checks can succeed while the sender has not nominated the new pair yet.
    ///
    /// - Parameter wanted: asked before each look; nil ends the wait with `CancellationError`
    ///   (the adapter stopped, or the link is no longer current), otherwise whether tracks are
    ///   subscribed and media must flow.
    /// - Throws: `CancellationError`, ``PeerConnectionError/closed``, or
    ///   ``PeerConnectionError/iceFailed`` when `timeout` passes first.
    public func waitUntilRecovered(timeout: Duration, wanted: @Sendable () async -> Bool?) async throws {
        guard let peer else { throw CancellationError() }
        let packetsBefore = try await loop.submit { peer.counters.rtpIn }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let expectsMedia = await wanted() else { throw CancellationError() }
            let (state, packets) = try await loop.submit { (peer.state, peer.counters.rtpIn) }
            // A few dozen packets: more than stragglers of the old path.
            if state == .connected, !expectsMedia || packets > packetsBefore + 25 { return }
            if case .closed = state { throw PeerConnectionError.closed }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw PeerConnectionError.iceFailed
    }

    /// Kills the current connection's data transport as a long outage would (SCTP gave up):
    /// for tests.
    package func simulateDataTransportLoss() async throws {
        guard let peer else { return }
        try await loop.submit { peer.simulateDataTransportLoss() }
    }
}
