/// The life of one link to a room, as a plain value: join, drop, ICE restart, backoff, rejoin,
/// refusal, giving up and leaving. It takes ``Event``s and returns ``Action``s, and never
/// reads a clock, sleeps or touches a socket, so every path is tested with a manual clock and a
/// seeded random source.
///
///     idle ──start──▶ connecting ──joined──▶ connected ◀──────────── iceRestarted ────────────┐
///                         │ joinFailed          │ linkLost,              │ mediaFailed            │
///                         ▼                     │ probes missed          ▼ (iceRestartFirst)      │
///                  ended(refused/gaveUp)        │                restartingICE(deadline) ─────────┘
///                                               ▼                        │ failed, lost, or the deadline
///                                  reconnecting(1), tear down     tear down, attempt 2
///                                               │                        │
///                                               ▼                        ▼
///                  ┌──────────────────────▶ waiting(n) ◀─────────────────┘
///                  │                          │ timer
///                  │ failed: n + 1            ▼
///                  └──────────────────── rejoining(n) ──refused──▶ ended(refused)
///                    (or, when the policy     │ joined
///                     says so, ended(gaveUp)) ▼
///                                   resync, connected
///
/// From any state with a link, a kick or a destroyed room ends at once; `stop` tears down and
/// ends with ``DisconnectReason/left`` from anywhere.
///
/// **Running it.** One driver owns the machine (``LinkDriver``, the one there is) and feeds it one
/// event at a time with `now` from one ``MediaClock``; it runs the returned actions in order:
/// - ``Action/report(_:)``: publish the connection state.
/// - ``Action/connect(generation:)``: build the link (connect, join) and answer exactly once with
///   ``Event/joined(generation:)`` or ``Event/joinFailed(generation:error:isRefusal:)``. While it
///   stands, feed its watchers' findings (``Event/linkLost(generation:reason:)``,
///   ``Event/mediaFailed(generation:reason:)``, ``Event/refused(generation:reason:)``,
///   ``Event/roomDestroyed(generation:)``, probe answers and misses) with that generation. A link
///   that dies while it is being built is reported by its `joinFailed`, not by `linkLost`.
///   A driver that cannot restart ICE on a failed link reports `linkLost` instead of `mediaFailed`.
/// - ``Action/tearDown(generation:)``: close that link if it is still up; idempotent. Events of
///   a torn-down link are ignored, so watchers may race the teardown.
/// - ``Action/restartICE(generation:)``: restart ICE on the link and answer with
///   ``Event/iceRestarted(generation:)`` or ``Event/iceRestartFailed(generation:error:)``. The
///   machine keeps the deadline (``Configuration/iceRestartTimeout``); an answer after it is ignored.
/// - ``Action/schedule(_:after:)`` and ``Action/cancelTimer(_:)``: a timer that feeds
///   ``Event/timerFired(_:)`` with its token (`Task.sleep` in production, a ``ManualMediaClock``
///   in tests). A timer that fires after it was cancelled is ignored, so cancelling may race.
/// - ``Action/resync(droppedAt:)``: after a rebuilt link, settle the room as of the drop (the
///   audience: who left meanwhile leaves at `droppedAt`, everyone is subscribed again; a host:
///   publish again). An ICE restart keeps the link, so it is followed by `connected` alone.
/// - ``Action/end(_:)``: report ``ConnectionState/disconnected(reason:)`` and release everything.
///   Nothing follows it; later events return no actions.
///
/// Retrying follows ``ReconnectPolicy``: attempt *n* waits `reconnect.delay(beforeAttempt: n,
/// elapsed:)` after the previous one failed, counted from the drop, and a nil delay gives up.
/// The texts of the ending are the ones the two loops it replaces wrote (LinkStateMachine+Texts.swift).
public struct LinkStateMachine: Sendable {
    /// Where the link stands.
    public enum State: Sendable, Equatable {
        case idle
        /// The first join, on link `generation`.
        case connecting(generation: Int)
        case connected(generation: Int)
        /// Media failed; ICE restarts on the same link until `deadline`.
        case restartingICE(generation: Int, deadline: MediaInstant)
        /// No link; attempt `attempt` starts at `until`.
        case waiting(attempt: Int, until: MediaInstant)
        /// Attempt `attempt` builds link `generation`.
        case rejoining(attempt: Int, generation: Int)
        case ended(DisconnectReason)
    }

    /// What one recovery knows, from the drop until the link is back or the machine ends.
    public struct Recovery: Sendable, Equatable {
        /// When the link dropped: the policy's time limit counts from here, and a resync settles the room as of it.
        public var droppedAt: MediaInstant
        /// Why it dropped.
        public var reason: String
        /// The latest failure: the drop, then each failed ICE restart or rejoin.
        public var lastError: String
    }

    public let configuration: Configuration
    public private(set) var state = State.idle
    /// Set from a drop until the link is back or the machine ends.
    public private(set) var recovery: Recovery?
    /// The number of the newest link asked for (0 before the first).
    public private(set) var generation = 0
    private var random: any RandomNumberGenerator & Sendable
    private var pendingTimer: TimerToken?
    private var timersScheduled = 0
    private var probesMissed = 0

    /// `random` jitters the backoff (``ReconnectPolicy/delay(beforeAttempt:elapsed:using:)``):
    /// tests pass a seeded one.
    public init(
        configuration: Configuration = Configuration(), random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.random = random
    }

    /// The link still standing, whose events are heard; nil while waiting, idle or ended.
    public var currentLink: Int? {
        switch state {
        case .connecting(let generation), .connected(let generation), .restartingICE(let generation, _),
            .rejoining(_, let generation):
            generation
        case .idle, .waiting, .ended:
            nil
        }
    }

    /// Takes one event at `now` and returns what the driver must do, in order.
    public mutating func handle(_ event: Event, now: MediaInstant) -> [Action] {
        switch event {
        case .start:
            guard state == .idle else { return [] }
            generation += 1
            state = .connecting(generation: generation)
            return [.report(.connecting), .connect(generation: generation)]
        case .stop:
            return stop()
        case .timerFired(let token):
            guard token == pendingTimer else { return [] }
            pendingTimer = nil
            return timerFired(now: now)
        case .joined(let link):
            guard link == currentLink else { return [] }
            return joined()
        case .joinFailed(let link, let error, let isRefusal):
            guard link == currentLink else { return [] }
            return joinFailed(error: error, isRefusal: isRefusal, now: now)
        case .linkLost(let link, let reason):
            guard link == currentLink else { return [] }
            return lost(reason: reason, now: now)
        case .mediaFailed(let link, let reason):
            guard link == currentLink, case .connected = state else { return [] }
            return dropped(reason: Self.mediaFailure(reason), restartICE: configuration.iceRestartFirst, now: now)
        case .refused(let link, let reason):
            guard link == currentLink else { return [] }
            return finish(.refused(reason), tearingDown: link)
        case .roomDestroyed(let link):
            guard link == currentLink else { return [] }
            return finish(.roomDestroyed, tearingDown: link)
        case .probeAnswered(let link):
            guard link == currentLink else { return [] }
            probesMissed = 0
            return []
        case .probeMissed(let link, let reason):
            guard link == currentLink, linkIsUp else { return [] }
            probesMissed += 1
            guard probesMissed >= max(1, configuration.probeMisses) else { return [] }
            return lost(reason: reason, now: now)
        case .iceRestarted(let link):
            guard link == currentLink, case .restartingICE = state else { return [] }
            state = .connected(generation: link)
            recovery = nil
            return cancelPendingTimer() + [.report(.connected)]
        case .iceRestartFailed(let link, let error):
            guard link == currentLink, case .restartingICE = state else { return [] }
            return iceRestartFailed(error: error, now: now)
        }
    }

    // MARK: Transitions

    /// Whether the current link was in the room when it failed (what probes watch).
    private var linkIsUp: Bool {
        switch state {
        case .connected, .restartingICE: true
        default: false
        }
    }

    private mutating func joined() -> [Action] {
        switch state {
        case .connecting(let link):
            state = .connected(generation: link)
            probesMissed = 0
            return [.report(.connected)]
        case .rejoining(_, let link):
            state = .connected(generation: link)
            probesMissed = 0
            let droppedAt = recovery?.droppedAt
            recovery = nil
            return (droppedAt.map { [.resync(droppedAt: $0)] } ?? []) + [.report(.connected)]
        default:
            return []
        }
    }

    private mutating func joinFailed(error: String, isRefusal: Bool, now: MediaInstant) -> [Action] {
        switch state {
        case .connecting(let link):
            // The first join is not retried: its error is the end.
            return finish(isRefusal ? .refused(error) : .gaveUp(error), tearingDown: link)
        case .rejoining(let attempt, let link):
            guard var recovery else { return [] }
            if isRefusal { return finish(.refused(refusedText(error, recovery)), tearingDown: link) }
            recovery.lastError = error
            self.recovery = recovery
            return [.tearDown(generation: link)] + scheduleAttempt(attempt + 1, now: now)
        default:
            return []
        }
    }

    /// The link is dead: recover from the connected state, or give the ICE restart up.
    /// While a link is being built its `joinFailed` tells instead.
    private mutating func lost(reason: String, now: MediaInstant) -> [Action] {
        switch state {
        case .connected: dropped(reason: reason, restartICE: false, now: now)
        case .restartingICE: iceRestartFailed(error: reason, now: now)
        default: []
        }
    }

    private mutating func dropped(reason: String, restartICE: Bool, now: MediaInstant) -> [Action] {
        guard case .connected(let link) = state else { return [] }
        recovery = Recovery(droppedAt: now, reason: reason, lastError: reason)
        probesMissed = 0
        if restartICE {
            state = .restartingICE(generation: link, deadline: now + configuration.iceRestartTimeout)
            return [.report(.reconnecting(attempt: 1)), .restartICE(generation: link)]
                + [schedule(after: configuration.iceRestartTimeout)]
        }
        switch configuration.wording {
        case .link: return [.report(.reconnecting(attempt: 1)), .tearDown(generation: link)] + scheduleAttempt(1, now: now)
        case .rejoin: return [.tearDown(generation: link)] + scheduleAttempt(1, now: now)
        }
    }

    /// The ICE restart counts as attempt 1; the rebuild is attempt 2.
    private mutating func iceRestartFailed(error: String, now: MediaInstant) -> [Action] {
        guard case .restartingICE(let link, _) = state, var recovery else { return [] }
        recovery.lastError = Self.iceRestartFailure(after: recovery.reason, error: error)
        self.recovery = recovery
        return cancelPendingTimer() + [.tearDown(generation: link)] + scheduleAttempt(2, now: now)
    }

    private mutating func timerFired(now: MediaInstant) -> [Action] {
        switch state {
        case .waiting(let attempt, _):
            generation += 1
            state = .rejoining(attempt: attempt, generation: generation)
            return [.connect(generation: generation)]
        case .restartingICE:
            return iceRestartFailed(error: Self.iceRestartTimedOut, now: now)
        default:
            return []
        }
    }

    /// Waits before `attempt` as the policy says, or gives up.
    private mutating func scheduleAttempt(_ attempt: Int, now: MediaInstant) -> [Action] {
        guard let recovery else { return [] }
        let elapsed = now - recovery.droppedAt
        guard let delay = configuration.reconnect.delay(beforeAttempt: attempt, elapsed: elapsed, using: &random) else {
            return finish(.gaveUp(gaveUpText(attempts: attempt - 1, elapsed: elapsed, recovery)))
        }
        state = .waiting(attempt: attempt, until: now + delay)
        // In the link's wording reconnecting(1) went out at the drop.
        let announced = attempt == 1 && configuration.wording == .link
        return (announced ? [] : [.report(.reconnecting(attempt: attempt))]) + [schedule(after: delay)]
    }

    private mutating func stop() -> [Action] {
        switch state {
        case .ended:
            return []
        case .idle:
            return finish(.left)
        default:
            // Also while waiting: teardown is idempotent, and leaving must leave nothing behind.
            return finish(.left, tearingDown: generation)
        }
    }

    /// Ends for good: the pending timer is cancelled and `link`, if given, torn down.
    private mutating func finish(_ reason: DisconnectReason, tearingDown link: Int? = nil) -> [Action] {
        let cancel = cancelPendingTimer()
        state = .ended(reason)
        recovery = nil
        return cancel + (link.map { [.tearDown(generation: $0)] } ?? []) + [.end(reason)]
    }

    // MARK: Timers

    private mutating func schedule(after delay: Duration) -> Action {
        timersScheduled += 1
        let token = TimerToken(number: timersScheduled)
        pendingTimer = token
        return .schedule(token, after: delay)
    }

    private mutating func cancelPendingTimer() -> [Action] {
        guard let token = pendingTimer else { return [] }
        pendingTimer = nil
        return [.cancelTimer(token)]
    }
}
