import AgentCore
import AgentTransport

/// Runs a ``SubscriptionRouter``'s timers on the transport loop and sends the RTCP they produce
/// on the current PeerConnection.
final class StreamTicker: Sendable {
    let router: SubscriptionRouter
    let sink: @Sendable (RoomEvent) -> Void
    let statisticsEvery: Int
    /// The ticker's mutable part, the loop's alone (fire() runs from the loop's timer; the peer is
    /// set through loop.execute): every access checks that.
    private let state: LoopBound<State>

    private struct State {
        var peer: PeerConnection?
        var count = 0
    }

    init(router: SubscriptionRouter, sink: @escaping @Sendable (RoomEvent) -> Void, statisticsEvery: Int) {
        self.router = router
        self.sink = sink
        self.statisticsEvery = statisticsEvery
        state = LoopBound(State(), loop: router.loop)
    }

    /// Where RTCP goes; nil while a link is being rebuilt. Only on the loop.
    var peer: PeerConnection? {
        get { state.value.peer }
        set { state.value.peer = newValue }
    }

    func fire() {
        let (peer, count) = state.withValue { state in
            state.count += 1
            return (state.peer, state.count)
        }
        for datagram in router.tick() { try? peer?.sendRTCP(bytes: datagram) }
        guard count % statisticsEvery == 0 else { return }
        reportStatistics()
    }

    /// Sends every track's statistics to the sink now.
    func reportStatistics() {
        for (route, statistics) in router.statistics() {
            sink(.statistics(participantID: route.participantID, kind: route.kind, statistics))
        }
    }
}
