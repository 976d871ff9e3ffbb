/// What a ``LinkDriver`` runs its ``LinkStateMachine``'s actions on: the owner of the links (an
/// audience member, a publishing bot). The driver calls one of these at a time, in the
/// machine's order; only ``buildLink(generation:)`` and ``restartICE(generation:)`` run
/// beside the others (they take a while, and a stop must not wait for a retry to come back).
package protocol LinkDriverTarget: AnyObject, Sendable {
    /// Builds link `generation` (connect, join) and returns once it is in the room; throws what
    /// went wrong. The error's text (`"\(error)"`) is what the recovery reports.
    func buildLink(generation: Int) async throws

    /// Whether an error of ``buildLink(generation:)`` is a refusal (a token, a pin) that
    /// retrying cannot fix.
    nonisolated func isRefusal(_ error: any Error) -> Bool

    /// Closes link `generation` if it is still up, and whatever of it a build has set so far.
    /// Idempotent: the driver calls it again after a build it interrupted has returned.
    func tearDownLink(generation: Int) async

    /// Restarts ICE on link `generation`, returning once media flows again.
    func restartICE(generation: Int) async throws

    /// A rebuilt link is in the room: settle what the drop at `droppedAt` changed
    /// (``LinkStateMachine/Action/resync(droppedAt:)``).
    func resync(droppedAt: MediaInstant) async

    /// Publishes a connection state (never `disconnected`: ``end(_:)`` says that). `recovery`
    /// is the machine's account of the drop being recovered from, if any (its reason).
    func report(_ state: ConnectionState, recovery: LinkStateMachine.Recovery?) async

    /// Out of the room for good: report ``ConnectionState/disconnected(reason:)``. No call follows.
    func end(_ reason: DisconnectReason) async
}
