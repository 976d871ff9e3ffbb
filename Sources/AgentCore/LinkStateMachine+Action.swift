extension LinkStateMachine {
    /// What the driver does, in the order given (see ``LinkStateMachine`` for each).
    public enum Action: Sendable, Equatable {
        /// Publish a new connection state (never `disconnected`: ``end(_:)`` says that).
        case report(ConnectionState)
        /// Build link `generation` and answer with ``Event/joined(generation:)`` or
        /// ``Event/joinFailed(generation:error:isRefusal:)``.
        case connect(generation: Int)
        /// Close link `generation` if it is still up; idempotent.
        case tearDown(generation: Int)
        /// Restart ICE on link `generation`; answer with ``Event/iceRestarted(generation:)`` or
        /// ``Event/iceRestartFailed(generation:error:)``. The machine keeps the deadline.
        case restartICE(generation: Int)
        /// Feed ``Event/timerFired(_:)`` with `token` once `after` has passed.
        case schedule(TimerToken, after: Duration)
        /// Drop the timer of `token`; if it fires anyway, the machine ignores it.
        case cancelTimer(TimerToken)
        /// A rebuilt link is in the room: settle what the drop changed (participants gone since
        /// leave as of `droppedAt`, everyone is subscribed again; a host publishes again), before
        /// the ``report(_:)`` of `connected` that follows.
        case resync(droppedAt: MediaInstant)
        /// Out of the room for good: report ``ConnectionState/disconnected(reason:)`` and
        /// release everything. No action follows.
        case end(DisconnectReason)
    }

    /// Names one scheduled timer, so a timer that fires after it was replaced is recognised.
    public struct TimerToken: Hashable, Sendable, CustomStringConvertible {
        public let number: Int

        init(number: Int) { self.number = number }

        public var description: String { "timer \(number)" }
    }
}
