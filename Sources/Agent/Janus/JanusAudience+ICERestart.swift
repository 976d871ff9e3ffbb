import Foundation

/// ICE restart of the subscriber PeerConnection, for a media failure while signaling is up.
///
/// Janus VideoRoom (checked against Janus 1.1.2 in the lab): a subscriber `configure` with
/// `"restart": true` is answered `"configured": "ok"` with a JSEP offer carrying new ICE
/// credentials; we answer it with `start` as any renegotiation. The PeerConnection restarts
/// libnice and keeps its DTLS association and SRTP keys (PeerConnection+ICERestart.swift).
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
        try await waitUntilConnected(peer, generation: generation, timeout: configuration.iceRestartTimeout)
    }

    /// Polls the PeerConnection's state until it is connected again.
    private func waitUntilConnected(_ peer: PeerConnection, generation: Int, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard !stopped, generation == self.generation else { throw CancellationError() }
            let state = try await loop.submit { peer.state }
            if state == .connected { return }
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
}
