import Foundation

/// Recovering ``JanusAudience`` from a drop.
///
///     connected ──drop──▶ reconnecting(1) ──[media failed, signaling up]──▶ ICE restart ──ok──▶ connected
///                              │                                               │ failed
///                              ▼                                               ▼
///                         tear down ──▶ wait (backoff + jitter) ──▶ rebuild the link ──ok──▶ resync roster ──▶ connected
///                              ▲            │ limit reached                 │ failed             (gone: trackRemoved +
///                              │            ▼                               │                     participantLeft;
///                              │      disconnected(gaveUp)                  │                     new: announced;
///                              └──────── reconnecting(n+1) ◀────────────────┘                     all: subscribed)
///                                      403/405/433 ──▶ disconnected(refused), no further attempt
///
/// A missing room (426) is retried: after a restart Janus has forgotten rooms created at runtime,
/// and they come back when someone (we, with `create`) creates them again.
extension JanusAudience {
    /// Something showed that the link of `generation` is dead: starts the recovery once.
    func linkLost(generation: Int, reason: String) {
        startRecovery(generation: generation, reason: reason, iceRestartFirst: false)
    }

    /// The subscriber PeerConnection failed: with signaling up, an ICE restart comes first.
    func mediaFailed(generation: Int, reason: String) {
        startRecovery(generation: generation, reason: "media failed: \(reason)", iceRestartFirst: true)
    }

    private func startRecovery(generation: Int, reason: String, iceRestartFirst: Bool) {
        guard generation == self.generation, phase == .connected, !stopped else { return }
        phase = .recovering
        let droppedAt = Date()
        report(.reconnecting(attempt: 1))
        recovery = Task { [weak self] in
            await self?.recover(reason: reason, droppedAt: droppedAt, iceRestartFirst: iceRestartFirst)
        }
    }

    private func recover(reason: String, droppedAt: Date, iceRestartFirst: Bool) async {
        let started = ContinuousClock.now
        var lastError = reason
        var attempt = 1
        if iceRestartFirst, subscriber != nil {
            let linkGeneration = generation
            do {
                try await withCheckedThrowingContinuation { done in
                    enqueue(.restartICE(generation: linkGeneration, done: done))
                }
                guard !stopped else { return }
                iceRestarts += 1
                finishRecovery(rejoined: nil, droppedAt: droppedAt)
                return
            } catch {
                lastError = "\(reason); ICE restart failed: \(error)"
            }
            attempt = 2
        }
        await tearDownLink()
        while !stopped {
            guard let delay = configuration.join.reconnect.delay(beforeAttempt: attempt, elapsed: ContinuousClock.now - started) else {
                let seconds = Double((ContinuousClock.now - started).totalNanoseconds) / 1e9
                end(.gaveUp("gave up after \(attempt - 1) attempt(s) in \(String(format: "%.1f", seconds)) s: \(lastError)"))
                return
            }
            if attempt > 1 { report(.reconnecting(attempt: attempt)) }
            do { try await Task.sleep(for: delay) } catch { return }
            guard !stopped else { return }
            do {
                let joined = try await establishLink()
                guard !stopped else { return }
                finishRecovery(rejoined: joined, droppedAt: droppedAt)
                return
            } catch {
                await tearDownLink()
                guard !stopped else { return }
                if Self.isRefusal(error) {
                    end(.refused("\(error)"))
                    return
                }
                lastError = "\(error)"
            }
            attempt += 1
        }
    }

    /// Back in the room. After a rejoin, publishers gone meanwhile leave (as of the drop, when
    /// they were last known present), newcomers are announced, and everyone is subscribed again
    /// on the new PeerConnection. After an ICE restart only what was left unsubscribed meanwhile.
    private func finishRecovery(rejoined: VideoRoomJoined?, droppedAt: Date) {
        recovery = nil
        if let rejoined {
            let present = Set(rejoined.publishers.filter(isRecorded).map(\.id))
            for id in announced.keys.sorted() where !present.contains(id) {
                announced.removeValue(forKey: id)
                removeTracks(of: id)
                sink(.participantLeft(id: id, at: droppedAt))
            }
            reconnects += 1
        }
        phase = .connected
        report(.connected)
        if let rejoined { announce(rejoined.publishers, subscribe: false) }
        if !announced.isEmpty { enqueue(.subscribe(announced.keys.sorted())) }
    }
}
