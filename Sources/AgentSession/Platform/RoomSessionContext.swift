import AgentTransport

/// Where a ``RoomSession`` runs its media and where it reports: the channel's side of making a
/// session, beside the ``RoomJoin`` and ``RoomCredentials`` that say what to join.
public struct RoomSessionContext: Sendable {
    /// The transport loop the session's connections and media live on (the channel's).
    public var loop: EventLoop
    /// How often the receive streams' timers run (NACK, PLI/FIR, receiver reports).
    public var tickInterval: Duration
    /// How often the session reports receive statistics.
    public var statisticsInterval: Duration
    /// Where the session's events go, synchronously, where they happen.
    public var events: @Sendable (RoomSessionEvent) -> Void
    /// Sees what the receive side takes in (a capture for replay), when set.
    public var packetTap: (any ReceivePacketTap)?

    public init(
        loop: EventLoop, tickInterval: Duration, statisticsInterval: Duration, packetTap: (any ReceivePacketTap)? = nil,
        events: @escaping @Sendable (RoomSessionEvent) -> Void
    ) {
        self.packetTap = packetTap
        self.loop = loop
        self.tickInterval = tickInterval
        self.statisticsInterval = statisticsInterval
        self.events = events
    }
}
