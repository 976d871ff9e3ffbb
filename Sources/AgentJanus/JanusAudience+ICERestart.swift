import AgentWire
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
        guard !stopped, generation == self.generation, let subscriber, media.peer != nil else { throw CancellationError() }
        let reply = try await subscriber.handle.message(["request": "configure", "restart": true])
        let offer = try VideoRoomSubscriber.offer(from: reply.data, jsep: reply.jsep)
        guard generation == self.generation else { throw CancellationError() }
        try await negotiate(offer, generation: generation)
        let mid = (try? SessionDescription.parse(offer.sdp))?.attribute("mid", media: 0) ?? "0"
        for candidate in try await media.localCandidates() {
            try await subscriber.handle.trickle(candidate: [
                "candidate": .string("candidate:" + candidate), "sdpMid": .string(mid), "sdpMLineIndex": 0,
            ])
        }
        try await subscriber.handle.trickleCompleted()
        try await media.waitUntilRecovered(timeout: configuration.join.timeouts.iceRestart) { [weak self] in
            await self?.recoveryExpectsMedia(generation: generation)
        }
    }

    /// For ``SubscriberMedia/waitUntilRecovered(timeout:wanted:)``: nil once the wait is moot
    /// (stopped, or another link), else whether we receive tracks, so RTP must flow again.
    private func recoveryExpectsMedia(generation: Int) -> Bool? {
        guard !stopped, generation == self.generation else { return nil }
        return !tracks.isEmpty
    }

    /// Forces an ICE restart of a healthy connection, as a media failure would: for tests and
    /// diagnostics. Reports reconnecting, then connected (or rebuilds the link if it fails).
    func simulateMediaFailure() {
        mediaFailed(generation: generation, reason: "simulated")
    }

    /// Kills the subscriber's data transport as a long outage would (SCTP gave up): for tests.
    func simulateDataTransportLoss() async throws {
        try await media.simulateDataTransportLoss()
    }
}
