/// Runs a ``SubscriptionRouter``'s timers on the transport loop and sends the RTCP they produce
/// on the current PeerConnection.
final class StreamTicker: @unchecked Sendable {
    // @unchecked Sendable: `peer` and `count` are touched only on the transport loop (fire()
    // runs from the loop's timer; peer is set through loop.execute).
    let router: SubscriptionRouter
    let sink: @Sendable (RoomEvent) -> Void
    let statisticsEvery: Int
    /// Where RTCP goes; nil while a link is being rebuilt.
    var peer: PeerConnection?
    private var count = 0

    init(router: SubscriptionRouter, sink: @escaping @Sendable (RoomEvent) -> Void, statisticsEvery: Int) {
        self.router = router
        self.sink = sink
        self.statisticsEvery = statisticsEvery
    }

    func fire() {
        count += 1
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
