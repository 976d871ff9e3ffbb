import Foundation

/// ICE restart of the subscriber PeerConnection, for a media failure while signaling is up.
///
/// Janus VideoRoom (checked against Janus 1.1.2 in the lab): a subscriber `configure` with
/// `"restart": true` is answered `"configured": "ok"` with a JSEP offer carrying new ICE
/// credentials; we answer it with `start` as any renegotiation. The PeerConnection restarts
/// libnice and keeps its DTLS association and SRTP keys (PeerConnection+ICERestart.swift).
/// Janus ignores the candidates inside a restarting answer ("Failed to add some remote
/// candidates (added 0, expected 1)" in its log: it adds them before it restarts its agent), so
/// they are trickled again after `start`, as browsers do.
extension JanusAudience {
    /// Runs from the command queue, so it never interleaves with a renegotiation.
    func restartICE(generation: Int, done: CheckedContinuation<Void, Error>) async {
        do {
            try await performICERestart(generation: generation)
            done.resume()
        } catch {
            done.resume(throwing: error)
        }
    }

    private func performICERestart(generation: Int) async throws {
        guard !stopped, generation == self.generation, let subscriber, let peer else { throw CancellationError() }
        let reply = try await subscriber.handle.message(["request": "configure", "restart": true])
        let offer = try VideoRoomSubscriber.offer(from: reply.data, jsep: reply.jsep)
        guard generation == self.generation else { throw CancellationError() }
        try await negotiate(offer, generation: generation)
        let mid = (try? SessionDescription.parse(offer.sdp))?.attribute("mid", media: 0) ?? "0"
        let candidates = try await loop.submit { peer.localParameters?.candidates ?? [] }
        for candidate in candidates {
            try await subscriber.handle.trickle(candidate: [
                "candidate": .string("candidate:" + candidate), "sdpMid": .string(mid), "sdpMLineIndex": 0,
            ])
        }
        try await subscriber.handle.trickleCompleted()
        let packetsBefore = try await loop.submit { peer.counters.rtpIn }
        try await waitUntilRecovered(
            peer, generation: generation, packetsBefore: packetsBefore, timeout: configuration.iceRestartTimeout)
    }

    /// Polls until the PeerConnection is connected again and, when we receive tracks, RTP flows
    /// again: our side's checks can succeed while Janus has not nominated the new pair yet.
    private func waitUntilRecovered(_ peer: PeerConnection, generation: Int, packetsBefore: Int, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard !stopped, generation == self.generation else { throw CancellationError() }
            let (state, packets) = try await loop.submit { (peer.state, peer.counters.rtpIn) }
            // A few dozen packets: more than stragglers of the old path.
            if state == .connected, tracks.isEmpty || packets > packetsBefore + 25 { return }
            if case .closed = state { throw PeerConnectionError.closed }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw PeerConnectionError.iceFailed
    }

    /// Forces an ICE restart of a healthy connection, as a media failure would: for tests and
    /// diagnostics. Reports reconnecting, then connected (or rebuilds the link if it fails).
    func simulateMediaFailure() {
        mediaFailed(generation: generation, reason: "simulated")
    }

    /// Kills the subscriber's data transport as a long outage would (SCTP gave up): for tests.
    func simulateDataTransportLoss() async throws {
        guard let peer else { return }
        try await loop.submit { peer.simulateDataTransportLoss() }
    }
}
