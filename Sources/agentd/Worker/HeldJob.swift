import Foundation
import JobQueue
import Synchronization

/// A job this worker holds: its claim, its running work, and its lease as this worker knows it.
///
/// The lease is ours while the last renewal Redis confirmed is younger than the lease's length.
/// Past that, or once a renewal came back fenced (another worker claimed the job), the job's
/// files and state are not ours to write: ``mayWrite`` says so to the recorder's manifest writes.
final class HeldJob: Sendable {
    let claim: JobClaim
    let record: JobRecord
    /// What the job cost when claimed, before anyone joined.
    let composite: Bool
    let task = Mutex<Task<Void, Never>?>(nil)
    private let lease: Duration
    private let state: Mutex<State>

    private struct State {
        var renewed: ContinuousClock.Instant
        var lastHeartbeat: ContinuousClock.Instant
        var fenced = false
        var releasing = false
        /// Redis has been told the job is running (its room joined).
        var startReported = false
    }

    init(claim: JobClaim, record: JobRecord, composite: Bool, lease: Duration, claimedAt: ContinuousClock.Instant = .now) {
        self.claim = claim
        self.record = record
        self.composite = composite
        self.lease = lease
        state = Mutex(State(renewed: claimedAt, lastHeartbeat: claimedAt))
    }

    var id: String { claim.id }

    /// True while the lease is ours: not fenced, and renewed within its length.
    var mayWrite: Bool {
        state.withLock { !$0.fenced && ContinuousClock.now - $0.renewed < lease }
    }

    var isFenced: Bool { state.withLock(\.fenced) }
    var isReleasing: Bool { state.withLock(\.releasing) }

    /// A heartbeat is due every `heartbeat`, and at once when the job has `started` (joined its
    /// room) and Redis has not heard so: the API shows `running` within a tick of the join, not
    /// a heartbeat later.
    func heartbeatDue(every heartbeat: Duration, started: Bool, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { now - $0.lastHeartbeat >= heartbeat || (started && !$0.startReported) }
    }

    /// A heartbeat went out at `sent` (saying `started`); `confirmed` when Redis renewed the lease.
    func heartbeat(sent: ContinuousClock.Instant, started: Bool, confirmed: Bool) {
        state.withLock { state in
            state.lastHeartbeat = sent
            if confirmed {
                state.renewed = max(state.renewed, sent)
                if started { state.startReported = true }
            }
        }
    }

    /// Another claim took the job: stop it, and write nothing more of it.
    func fence() {
        state.withLock { $0.fenced = true }
        record.stop.request()
    }

    /// The worker is shutting down: stop the job so another worker continues it.
    func release() {
        state.withLock { $0.releasing = true }
        record.stop.request()
    }
}
