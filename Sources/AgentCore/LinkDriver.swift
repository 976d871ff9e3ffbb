import Synchronization

/// The one loop that keeps a link in the room: it feeds a ``LinkStateMachine`` one event at a
/// time and runs the actions it returns on a ``LinkDriverTarget``, as the machine's doc comment
/// says a driver must. The machine decides everything (when to restart ICE, how long to wait,
/// when to give up, what the ending says); the driver only builds, tears down, waits and reports.
/// An audience (JanusAudience) and a publishing bot (BotKit's Bot) each own one.
///
///     watchers ──send(linkLost…)──▶ inbox ──▶ machine.handle ──▶ actions, in order, on the target
///        ▲                                                          │ connect, restartICE: a task
///        └──────────── joined / joinFailed / iceRestarted … ◀───────┘ that answers into the inbox
///
/// Builds and ICE restarts run beside the loop, so a stop is heard while a rejoin is under way;
/// tearing a link down that is still being built first tears down what it has (which makes it
/// fail fast), waits for the build to return, and tears down again what it set meanwhile. Timers
/// sleep with the injected `sleep` and time comes from the injected ``MediaClock``, so tests run
/// every path with a ``ManualMediaClock`` and no real waiting.
package actor LinkDriver {
    /// Waits `duration` (throws when cancelled): `Task.sleep` in production.
    package typealias Sleep = @Sendable (Duration) async throws -> Void

    /// The target (held weakly: it owns the driver) and the machine's state as of the last event.
    private struct Shared {
        weak var target: (any LinkDriverTarget)?
        var state = LinkStateMachine.State.idle
    }

    private var machine: LinkStateMachine
    private let clock: any MediaClock
    private let sleep: Sleep
    private let events: AsyncStream<LinkStateMachine.Event>
    private nonisolated let inbox: AsyncStream<LinkStateMachine.Event>.Continuation
    private nonisolated let shared = Mutex(Shared())
    private var loop: Task<Void, Never>?
    private var timers: [LinkStateMachine.TimerToken: Task<Void, Never>] = [:]
    private var builds: [Int: Task<Void, Never>] = [:]
    private var restarts: [Int: Task<Void, Never>] = [:]
    /// What the first build threw: ``start()`` throws it.
    private var firstBuildError: (any Error)?
    private var startOutcome: Result<Void, any Error>?
    private var startWaiters: [CheckedContinuation<Void, any Error>] = []

    package init(
        configuration: LinkStateMachine.Configuration, clock: any MediaClock = SystemMediaClock(),
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) }
    ) {
        machine = LinkStateMachine(configuration: configuration, random: random)
        self.clock = clock
        self.sleep = sleep
        (events, inbox) = AsyncStream<LinkStateMachine.Event>.makeStream()
    }

    deinit {
        inbox.finish()
    }

    /// The target the actions run on; set once, by the owner, before ``start()``.
    package nonisolated func bind(_ target: some LinkDriverTarget) {
        shared.withLock { $0.target = target }
    }

    /// Where the machine stands after the last event it took (a rejoin under way is `waiting` or
    /// `rejoining`).
    package nonisolated var state: LinkStateMachine.State { shared.withLock { $0.state } }

    /// Whether the machine has ended: a ``LinkDriverTarget/tearDownLink(generation:)`` in that
    /// state closes the last link for good.
    package nonisolated var hasEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Tells the machine something about a link (a watcher's finding); from any thread. Events
    /// after the end are dropped.
    package nonisolated func send(_ event: LinkStateMachine.Event) {
        inbox.yield(event)
    }

    /// Joins for the first time and returns once the link is in the room, or throws what its
    /// build threw (the machine has ended then, and the target heard ``LinkDriverTarget/end(_:)``).
    /// A stop while joining returns when the build had succeeded. Later calls wait for the same outcome.
    package func start() async throws {
        startLoop()
        send(.start)
        if let startOutcome { return try startOutcome.get() }
        try await withCheckedThrowingContinuation { startWaiters.append($0) }
    }

    /// Leaves: tears down whatever is up or being built, ends with ``DisconnectReason/left``
    /// (unless the machine had ended already) and returns once the target heard the end.
    package func stop() async {
        startLoop()
        send(.stop)
        await loop?.value
    }

    // MARK: The loop

    private func startLoop() {
        guard loop == nil else { return }
        let events = self.events
        loop = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.process(event)
            }
        }
    }

    private var target: (any LinkDriverTarget)? { shared.withLock { $0.target } }

    private func process(_ event: LinkStateMachine.Event) async {
        switch event {
        case .joined(let link), .joinFailed(let link, _, _): builds[link] = nil
        case .iceRestarted(let link), .iceRestartFailed(let link, _): restarts[link] = nil
        case .timerFired(let token): timers[token] = nil
        default: break
        }
        let actions = machine.handle(event, now: clock.now())
        let state = machine.state
        shared.withLock { $0.state = state }
        for action in actions { await run(action) }
        settleStart()
    }

    private func run(_ action: LinkStateMachine.Action) async {
        switch action {
        case .report(let state):
            await target?.report(state, recovery: machine.recovery)
        case .connect(let link):
            build(link)
        case .tearDown(let link):
            await tearDown(link)
        case .restartICE(let link):
            restartICE(link)
        case .schedule(let token, let delay):
            let sleep = self.sleep
            timers[token] = Task { [weak self] in
                do { try await sleep(delay) } catch { return }
                self?.send(.timerFired(token))
            }
        case .cancelTimer(let token):
            timers.removeValue(forKey: token)?.cancel()
        case .resync(let droppedAt):
            await target?.resync(droppedAt: droppedAt)
        case .end(let reason):
            for timer in timers.values { timer.cancel() }
            timers.removeAll()
            // An answer to a restart after the end is ignored anyway; nothing waits for it.
            for restart in restarts.values { restart.cancel() }
            restarts.removeAll()
            await target?.end(reason)
            inbox.finish()
        }
    }

    private func build(_ link: Int) {
        guard let target else { return }
        builds[link] = Task { [weak self] in
            do {
                try await target.buildLink(generation: link)
                self?.send(.joined(generation: link))
            } catch {
                await self?.buildFailed(link, error, isRefusal: target.isRefusal(error))
            }
        }
    }

    private func buildFailed(_ link: Int, _ error: any Error, isRefusal: Bool) {
        if link == 1 { firstBuildError = error }
        send(.joinFailed(generation: link, error: "\(error)", isRefusal: isRefusal))
    }

    private func tearDown(_ link: Int) async {
        let target = self.target
        if let build = builds.removeValue(forKey: link) {
            // What the build has so far goes first (a closed socket fails it fast), then what it
            // set before it noticed.
            await target?.tearDownLink(generation: link)
            await build.value
        }
        await target?.tearDownLink(generation: link)
    }

    private func restartICE(_ link: Int) {
        guard let target else { return }
        restarts[link] = Task { [weak self] in
            do {
                try await target.restartICE(generation: link)
                self?.send(.iceRestarted(generation: link))
            } catch {
                self?.send(.iceRestartFailed(generation: link, error: "\(error)"))
            }
        }
    }

    /// ``start()`` returns once the first link is in the room, or the machine ended first.
    private func settleStart() {
        guard startOutcome == nil else { return }
        let outcome: Result<Void, any Error>
        switch machine.state {
        case .connected:
            outcome = .success(())
        case .ended:
            outcome = firstBuildError.map { .failure($0) } ?? .success(())
        default:
            return
        }
        startOutcome = outcome
        let waiters = startWaiters
        startWaiters.removeAll()
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}
