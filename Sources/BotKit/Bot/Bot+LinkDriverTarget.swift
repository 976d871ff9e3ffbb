import Agent

/// ``Bot`` as the target of its ``LinkDriver``: a link is one host channel. When the channel
/// drops (its publisher's signaling closed, Janus hung up, the listener gave up), the machine
/// has the bot leave it, wait as ``RoomJoin/reconnect`` says and join a new one, whose
/// ``PublishSession`` the pacing switches to; its actions come out as the bot's events:
///
///     drop ──▶ leave ──▶ reconnecting(1, drop) ──wait──▶ join + switch ──ok──▶ reconnected(new id)
///                              ▲                               │ failed
///                              └──── reconnecting(n + 1) ◀─────┤ refused: connectionLost("<drop>; rejoining was refused: …")
///                                   limit: connectionLost("<drop>; gave up after N attempt(s) to rejoin")
///
/// A refused or destroyed room ends it without a retry, and ``ReconnectPolicy/never`` ends it at
/// the drop with the drop's reason.
extension Bot: LinkDriverTarget {
    /// The rejoin wording (the bot's texts), no ICE restart (a host channel reports only that it
    /// ended) and no probes (the channel's sessions watch their links).
    static func linkConfiguration(_ join: RoomJoin) -> LinkStateMachine.Configuration {
        LinkStateMachine.Configuration(reconnect: join.reconnect, iceRestartFirst: false, wording: .rejoin)
    }

    /// The first link only joins (``start(_:)`` starts the pacing on it); a rejoin also switches
    /// the pacing to the new channel's publishing session, and fails as a whole if that fails.
    package func buildLink(generation: Int) async throws {
        guard let options else { throw BotError.notStarted }
        try await join(options, link: generation)
        guard generation > 1, let pacing else { return }
        guard !stopped, let publishing else { throw CancellationError() }
        try await pacing.switchPublishing(to: publishing, tracks: await channel?.publishedTracks ?? [])
    }

    package nonisolated func isRefusal(_ error: any Error) -> Bool {
        (error as? AgentError)?.isRefusal ?? false
    }

    /// Leaves the link's channel before a rejoin. The channel the bot ends on (refused, the room
    /// destroyed, no retry left, stopping) stays until ``stop()``, which reads what it sent (the
    /// summaries' figures) and leaves it.
    package func tearDownLink(generation: Int) async {
        guard generation == channelLink, let channel, !driver.hasEnded else { return }
        self.channel = nil
        publishing = nil
        await leave(channel)
    }

    /// A host channel has no ICE restart of its own (the configuration never asks for one).
    package func restartICE(generation: Int) async throws {
        throw CancellationError()
    }

    package func resync(droppedAt: MediaInstant) {
        guard let publisherID else { return }
        emit(.reconnected(publisherID: publisherID))
    }

    package func report(_ state: ConnectionState, recovery: LinkStateMachine.Recovery?) {
        switch state {
        case .connected:
            wasConnected = true
        case .reconnecting(let attempt):
            emit(.reconnecting(attempt: attempt, reason: recovery?.reason ?? ""))
        case .connecting, .disconnected:
            break
        }
    }

    package func end(_ reason: DisconnectReason) {
        guard wasConnected else { return }
        switch reason {
        case .left: break
        case .gaveUp(let why), .refused(let why): emit(.connectionLost(why))
        case .roomDestroyed: emit(.connectionLost("the room was destroyed"))
        }
    }
}
