import AgentCore
import Foundation

/// ``JanusAudience`` as the target of its ``LinkDriver``: the machine decides how a drop is
/// recovered (LinkStateMachine.swift), and these are the Janus halves of its actions.
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
extension JanusAudience: LinkDriverTarget {
    /// How the audience's link recovers: ``RoomJoin/reconnect``'s backoff, an ICE restart first
    /// within ``RoomTimeouts/iceRestart``, two unanswered keepalives make a dead link.
    static func linkConfiguration(_ join: RoomJoin) -> LinkStateMachine.Configuration {
        LinkStateMachine.Configuration(
            reconnect: join.reconnect, iceRestartFirst: true, iceRestartTimeout: join.timeouts.iceRestart, probeMisses: 2,
            wording: .link)
    }

    // MARK: Signals for the machine

    /// Something showed that the link of `generation` is dead.
    func linkLost(generation: Int, reason: String) {
        driver.send(.linkLost(generation: generation, reason: reason))
    }

    /// The subscriber PeerConnection failed: with signaling up, an ICE restart comes first. With
    /// no subscription there is nothing to restart, and the link is rebuilt at once.
    func mediaFailed(generation: Int, reason: String) {
        guard generation == self.generation, subscriber != nil else {
            linkLost(generation: generation, reason: LinkStateMachine.mediaFailure(reason))
            return
        }
        driver.send(.mediaFailed(generation: generation, reason: reason))
    }

    // MARK: Actions

    package func buildLink(generation: Int) async throws {
        self.generation = generation
        try await establishLink(generation: generation)
    }

    package nonisolated func isRefusal(_ error: any Error) -> Bool {
        Self.isRefusal(error)
    }

    /// The last link of an audience that is out for good (refused, kicked, destroyed, stopped)
    /// reports every track's statistics a last time while its streams are still there.
    package func tearDownLink(generation: Int) async {
        if driver.hasEnded { await media.stopTicking() }
        await tearDownLink()
    }

    /// Runs on the command queue, so it never interleaves with a renegotiation.
    package func restartICE(generation: Int) async throws {
        try await withCheckedThrowingContinuation { done in
            enqueue(.restartICE(generation: generation, done: done))
        }
    }

    /// After a rejoin, publishers gone meanwhile leave, as of the drop (when they were last
    /// known present). Newcomers are announced and everyone is subscribed once `connected` is out.
    package func resync(droppedAt: MediaInstant) {
        let present = Set((joined?.publishers ?? []).filter(isRecorded).map(\.id))
        let at = Date(timeIntervalSince1970: Double(droppedAt.wallNanoseconds) / 1e9)
        for id in announced.keys.sorted() where !present.contains(id) {
            announced.removeValue(forKey: id)
            unpublishedFeeds.remove(id)
            removeTracks(of: id)
            sink(.participantLeft(id: id, at: at))
        }
        reconnects += 1
        rejoined = true
    }

    package func report(_ state: ConnectionState, recovery: LinkStateMachine.Recovery?) {
        switch state {
        case .connected:
            linkUp()
        case .reconnecting:
            phase = .recovering
            report(state)
        case .connecting, .disconnected:
            report(state)
        }
    }

    package func end(_ reason: DisconnectReason) {
        phase = .ended
        report(.disconnected(reason: reason))
    }

    /// In the room: the first time the stream timers start and the publishers there are
    /// announced and subscribed; after a rejoin newcomers are announced and everyone is
    /// subscribed on the new PeerConnection; after an ICE restart what was left unsubscribed
    /// meanwhile is subscribed.
    private func linkUp() {
        let first = phase == .idle
        phase = .connected
        if first {
            // Stream timers (NACK, PLI/FIR, receiver reports) and statistics, on the loop.
            media.startTicking()
            report(.connected)
            announce(joined?.publishers ?? [])
            return
        }
        if rejoined {
            rejoined = false
            report(.connected)
            announce(joined?.publishers ?? [], subscribe: false)
        } else {
            iceRestarts += 1
            report(.connected)
        }
        let publishing = announced.keys.filter { !unpublishedFeeds.contains($0) }
        if !publishing.isEmpty { enqueue(.subscribe(publishing.sorted())) }
    }
}
