extension LinkStateMachine {
    /// What the driver tells the machine. An event about a link carries the generation of the
    /// ``Action/connect(generation:)`` that built it; the machine ignores it unless that link is
    /// the current one, so a watcher of an old link cannot touch the new one.
    public enum Event: Sendable, Equatable {
        /// Join for the first time.
        case start
        /// The link of `generation` is in the room (the answer to ``Action/connect(generation:)``).
        case joined(generation: Int)
        /// The link of `generation` could not be built. `isRefusal`: the server refused us (token,
        /// pin), so retrying would not help.
        case joinFailed(generation: Int, error: String, isRefusal: Bool)
        /// The link of `generation` is dead (signaling closed, session or handle gone).
        case linkLost(generation: Int, reason: String)
        /// The media connection of `generation` failed while its signaling may still be up.
        case mediaFailed(generation: Int, reason: String)
        /// The server threw us out (kicked, token revoked): the end, without a retry.
        case refused(generation: Int, reason: String)
        /// The room of `generation` was destroyed: the end, without a retry.
        case roomDestroyed(generation: Int)
        /// A probe of the link (a keepalive) was answered.
        case probeAnswered(generation: Int)
        /// A probe went unanswered; `reason` is what a lost link then says ("Janus stopped answering").
        case probeMissed(generation: Int, reason: String)
        /// The ICE restart on `generation` worked: media flows again on the same link.
        case iceRestarted(generation: Int)
        case iceRestartFailed(generation: Int, error: String)
        /// A timer of ``Action/schedule(_:after:)`` is due.
        case timerFired(TimerToken)
        /// Leave: tear down whatever is up and end with ``DisconnectReason/left``.
        case stop
    }
}
