import Foundation
import Testing

@testable import Agent
@testable import AgentCore

/// The link state machine driven by hand: a manual clock, a seeded random source, no sockets and
/// no sleeps. The texts of the endings are compared with the ones the two loops it replaced wrote
/// (JanusAudience+Reconnect.swift and Bot.swift; the line references are to commit 25f9622, the
/// last with those loops).
@Suite struct LinkStateMachineTests {
    typealias Machine = LinkStateMachine
    typealias Action = LinkStateMachine.Action
    typealias Random = ReconnectPolicyTests.SeededRandom

    /// A machine and the clock its events are stamped with.
    struct Driven {
        var machine: Machine
        let clock = ManualMediaClock()

        init(_ configuration: Machine.Configuration, seed: UInt64 = 1) {
            machine = Machine(configuration: configuration, random: Random(state: seed))
        }

        mutating func send(_ event: Machine.Event) -> [Action] {
            machine.handle(event, now: clock.now())
        }

        /// Started and joined on link 1.
        static func connected(_ configuration: Machine.Configuration, seed: UInt64 = 1) -> Driven {
            var driven = Driven(configuration, seed: seed)
            _ = driven.send(.start)
            _ = driven.send(.joined(generation: 1))
            return driven
        }
    }

    /// Fixed delays (0.5 s, 1 s, 2 s, 4 s, ...), so the clock times in the texts are known.
    static func steady(attempts: Int? = nil, duration: Duration? = nil) -> ReconnectPolicy {
        ReconnectPolicy(jitter: 0, maximumAttempts: attempts, maximumDuration: duration)
    }

    static func configuration(
        _ policy: ReconnectPolicy, wording: Machine.Wording = .link, iceRestartFirst: Bool = true
    ) -> Machine.Configuration {
        Machine.Configuration(reconnect: policy, iceRestartFirst: iceRestartFirst, wording: wording)
    }

    /// The token of the timer `actions` schedule, to compare the whole list.
    static func token(_ actions: [Action]) throws -> Machine.TimerToken {
        let tokens = actions.compactMap { action -> Machine.TimerToken? in
            if case .schedule(let token, _) = action { token } else { nil }
        }
        return try #require(tokens.last, "no timer in \(actions)")
    }

    // MARK: Joining

    @Test func startJoinsOnceAndReportsConnected() {
        var driven = Driven(Self.configuration(.standard))
        #expect(driven.send(.start) == [.report(.connecting), .connect(generation: 1)])
        #expect(driven.machine.state == .connecting(generation: 1))
        #expect(driven.send(.start) == [])
        #expect(driven.send(.joined(generation: 1)) == [.report(.connected)])
        #expect(driven.machine.state == .connected(generation: 1))
        #expect(driven.machine.recovery == nil)
    }

    /// As JanusAudience.start (JanusAudience.swift:137) and Channel.swift:98: the first join's
    /// error ends the link, refused or given up, with the error's own text.
    @Test(arguments: [true, false])
    func theFirstJoinIsNotRetried(refusal: Bool) {
        var driven = Driven(Self.configuration(.standard))
        _ = driven.send(.start)
        let error = "the token was refused: 403 unauthorized"
        let reason: DisconnectReason = refusal ? .refused(error) : .gaveUp(error)
        #expect(driven.send(.joinFailed(generation: 1, error: error, isRefusal: refusal)) == [.tearDown(generation: 1), .end(reason)])
        #expect(driven.machine.state == .ended(reason))
    }

    // MARK: Retrying

    @Test func aDropReportsReconnectingTearsDownAndWaitsTheJitteredDelay() throws {
        let policy = ReconnectPolicy.standard  // ±20 % jitter
        var driven = Driven.connected(Self.configuration(policy), seed: 42)
        driven.clock.advance(by: .seconds(30))
        let actions = driven.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        // The same seed, drawn the same way: the machine's random source is the one given.
        var twin = Random(state: 42)
        let delay = try #require(policy.delay(beforeAttempt: 1, elapsed: .zero, using: &twin))
        #expect(delay != policy.nominalDelay(beforeAttempt: 1))
        #expect(actions == [.report(.reconnecting(attempt: 1)), .tearDown(generation: 1), .schedule(try Self.token(actions), after: delay)])
        #expect(driven.machine.state == .waiting(attempt: 1, until: driven.clock.now() + delay))
        #expect(driven.machine.currentLink == nil)
        let recovery = try #require(driven.machine.recovery)
        #expect(recovery.droppedAt == driven.clock.now())
        #expect(recovery.reason == "the signaling connection closed")
    }

    @Test func failedRejoinsRetryWithGrowingDelaysOnNewLinks() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        let droppedAt = driven.clock.now()
        var actions = driven.send(.linkLost(generation: 1, reason: "Janus timed our session out"))
        #expect(actions == [.report(.reconnecting(attempt: 1)), .tearDown(generation: 1), .schedule(try Self.token(actions), after: .milliseconds(500))])
        let expectedDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]
        for (index, delay) in expectedDelays.enumerated() {
            let attempt = index + 1, link = index + 2
            _ = try Self.rejoin(&driven, after: actions, attempt: attempt, link: link)
            actions = driven.send(.joinFailed(generation: link, error: "cannot reach the server (\(attempt))", isRefusal: false))
            #expect(actions == [
                .tearDown(generation: link), .report(.reconnecting(attempt: attempt + 1)), .schedule(try Self.token(actions), after: delay),
            ])
            #expect(driven.machine.recovery?.lastError == "cannot reach the server (\(attempt))")
        }
        _ = try Self.rejoin(&driven, after: actions, attempt: 4, link: 5)
        #expect(driven.send(.joined(generation: 5)) == [.resync(droppedAt: droppedAt), .report(.connected)])
        #expect(driven.machine.state == .connected(generation: 5))
        #expect(driven.machine.recovery == nil)
    }

    /// Whether at the first attempt or a later one, a refusal ends the recovery at once.
    @Test(arguments: [Machine.Wording.link, .rejoin], [1, 2, 4])
    func aRefusalEndsAtAnyAttempt(wording: Machine.Wording, refusedAt attempt: Int) throws {
        var driven = Driven.connected(Self.configuration(Self.steady(), wording: wording))
        var actions = driven.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        for failed in 1..<attempt {
            actions = try Self.rejoin(&driven, after: actions, attempt: failed, link: failed + 1)
            actions = driven.send(.joinFailed(generation: failed + 1, error: "timeout", isRefusal: false))
        }
        _ = try Self.rejoin(&driven, after: actions, attempt: attempt, link: attempt + 1)
        let error = "the token was refused: 403 unauthorized"
        let text: String
        switch wording {
        // JanusAudience+Reconnect.swift:76: `end(.refused("\(error)"))`.
        case .link: text = error
        // Bot.swift:145: `"\(reason); rejoining was refused: \(error)"`.
        case .rejoin: text = "the signaling connection closed; rejoining was refused: the token was refused: 403 unauthorized"
        }
        #expect(driven.send(.joinFailed(generation: attempt + 1, error: error, isRefusal: true))
            == [.tearDown(generation: attempt + 1), .end(.refused(text))])
        #expect(driven.machine.state == .ended(.refused(text)))
        #expect(driven.send(.stop) == [])
    }

    // MARK: Giving up

    /// JanusAudience+Reconnect.swift:60-61 and Bot.swift:128, with joins that take 0.3 s each.
    @Test(arguments: [Machine.Wording.link, .rejoin])
    func givesUpAtTheAttemptLimit(wording: Machine.Wording) throws {
        var driven = Driven.connected(Self.configuration(Self.steady(attempts: 3), wording: wording))
        let droppedAt = driven.clock.now()
        var actions = driven.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        var reported = actions.filter { if case .report = $0 { true } else { false } }
        for attempt in 1...3 {
            actions = try Self.rejoin(&driven, after: actions, attempt: attempt, link: attempt + 1)
            driven.clock.advance(by: .milliseconds(300))
            actions = driven.send(.joinFailed(generation: attempt + 1, error: "connection refused (\(attempt))", isRefusal: false))
            reported += actions.filter { if case .report = $0 { true } else { false } }
        }
        // 0.5 + 0.3 + 1 + 0.3 + 2 + 0.3 s after the drop.
        let elapsed = driven.clock.now() - droppedAt
        #expect(elapsed == .milliseconds(4400))
        let text: String
        switch wording {
        case .link:
            // Built as JanusAudience+Reconnect.swift:60-61 builds it, and as it reads.
            let seconds = Double(elapsed.totalNanoseconds) / 1e9
            let attempt = 4
            let lastError = "connection refused (3)"
            text = "gave up after \(attempt - 1) attempt(s) in \(String(format: "%.1f", seconds)) s: \(lastError)"
            #expect(text == "gave up after 3 attempt(s) in 4.4 s: connection refused (3)")
        case .rejoin:
            // Bot.swift:128: `"\(reason); gave up after \(attempt - 1) attempt(s) to rejoin"`.
            text = "the signaling connection closed; gave up after 3 attempt(s) to rejoin"
        }
        #expect(actions == [.tearDown(generation: 4), .end(.gaveUp(text))])
        #expect(driven.machine.state == .ended(.gaveUp(text)))
        #expect(reported == (1...3).map { .report(.reconnecting(attempt: $0)) })
    }

    /// The last wait is cut so the last attempt starts at the limit; the next is not made.
    @Test func givesUpAtTheTimeLimitAndCutsTheLastWait() throws {
        var driven = Driven.connected(Self.configuration(Self.steady(duration: .seconds(5))))
        var actions = driven.send(.linkLost(generation: 1, reason: "Janus stopped answering"))
        var waits: [Duration] = []
        for attempt in 1...4 {
            if case .schedule(_, let after) = actions.last { waits.append(after) }
            actions = try Self.rejoin(&driven, after: actions, attempt: attempt, link: attempt + 1)
            actions = driven.send(.joinFailed(generation: attempt + 1, error: "room 'r' does not exist", isRefusal: false))
        }
        // 0.5, 1, 2, then 4 cut to the 1.5 s left of the 5.
        #expect(waits == [.milliseconds(500), .seconds(1), .seconds(2), .milliseconds(1500)])
        #expect(actions == [.tearDown(generation: 5), .end(.gaveUp("gave up after 4 attempt(s) in 5.0 s: room 'r' does not exist"))])
    }

    /// With no attempts allowed the audience says reconnecting(1) then gives up (its loop reports
    /// before it asks the policy); the bot ends with the drop as it came (Bot.swift:112-115).
    @Test func neverRetryingEndsAtTheDrop() {
        var link = Driven.connected(Self.configuration(.never))
        #expect(link.send(.linkLost(generation: 1, reason: "the signaling connection closed")) == [
            .report(.reconnecting(attempt: 1)), .tearDown(generation: 1),
            .end(.gaveUp("gave up after 0 attempt(s) in 0.0 s: the signaling connection closed")),
        ])
        var rejoin = Driven.connected(Self.configuration(.never, wording: .rejoin))
        #expect(rejoin.send(.linkLost(generation: 1, reason: "the signaling connection closed")) == [
            .tearDown(generation: 1), .end(.gaveUp("the signaling connection closed")),
        ])
    }

    // MARK: ICE restart

    @Test func aMediaFailureRestartsICEThenTheDeadlineRebuildsAtAttempt2() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        let droppedAt = driven.clock.now()
        var actions = driven.send(.mediaFailed(generation: 1, reason: "ICE failed"))
        let deadline = try Self.token(actions)
        #expect(actions == [.report(.reconnecting(attempt: 1)), .restartICE(generation: 1), .schedule(deadline, after: .seconds(10))])
        #expect(driven.machine.state == .restartingICE(generation: 1, deadline: driven.clock.now() + .seconds(10)))
        #expect(driven.machine.recovery?.reason == "media failed: ICE failed")
        driven.clock.advance(by: .seconds(10))
        actions = driven.send(.timerFired(deadline))
        // Attempt 2 waits the policy's second delay, 1 s.
        #expect(actions == [.tearDown(generation: 1), .report(.reconnecting(attempt: 2)), .schedule(try Self.token(actions), after: .seconds(1))])
        // JanusAudience+Reconnect.swift:25 and :53; the timeout is PeerConnectionError.iceFailed there.
        #expect(driven.machine.recovery?.lastError == "media failed: ICE failed; ICE restart failed: \(PeerConnectionError.iceFailed)")
        actions = try Self.rejoin(&driven, after: actions, attempt: 2, link: 2)
        // The restart's late answer is of the old link.
        #expect(driven.send(.iceRestarted(generation: 1)) == [])
        #expect(driven.send(.joined(generation: 2)) == [.resync(droppedAt: droppedAt), .report(.connected)])
    }

    @Test func anICERestartThatMissesItsDeadlineIsAttempt1OfTheLimit() throws {
        var driven = Driven.connected(Self.configuration(Self.steady(attempts: 1)))
        let deadline = try Self.token(driven.send(.mediaFailed(generation: 1, reason: "consent expired")))
        driven.clock.advance(by: .seconds(10))
        #expect(driven.send(.timerFired(deadline)) == [
            .tearDown(generation: 1),
            .end(.gaveUp("gave up after 1 attempt(s) in 10.0 s: media failed: consent expired; ICE restart failed: ICE failed: no candidate pair worked")),
        ])
    }

    @Test func aSuccessfulICERestartKeepsTheLink() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        let deadline = try Self.token(driven.send(.mediaFailed(generation: 1, reason: "ICE failed")))
        driven.clock.advance(by: .seconds(2))
        #expect(driven.send(.iceRestarted(generation: 1)) == [.cancelTimer(deadline), .report(.connected)])
        #expect(driven.machine.state == .connected(generation: 1))
        #expect(driven.machine.generation == 1)
        #expect(driven.machine.recovery == nil)
        driven.clock.advance(by: .seconds(8))
        #expect(driven.send(.timerFired(deadline)) == [])
        #expect(driven.machine.state == .connected(generation: 1))
    }

    @Test func aFailedICERestartRebuilds() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        let deadline = try Self.token(driven.send(.mediaFailed(generation: 1, reason: "ICE failed")))
        let actions = driven.send(.iceRestartFailed(generation: 1, error: "signaling failed: timeout"))
        #expect(actions == [
            .cancelTimer(deadline), .tearDown(generation: 1), .report(.reconnecting(attempt: 2)), .schedule(try Self.token(actions), after: .seconds(1)),
        ])
        #expect(driven.machine.recovery?.lastError == "media failed: ICE failed; ICE restart failed: signaling failed: timeout")
        // The cancelled deadline fires anyway: it is not the wait's timer.
        let waiting = driven.machine.state
        #expect(driven.send(.timerFired(deadline)) == [])
        #expect(driven.machine.state == waiting)
    }

    @Test func signalingLostDuringTheICERestartRebuilds() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        let deadline = try Self.token(driven.send(.mediaFailed(generation: 1, reason: "ICE failed")))
        let actions = driven.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        #expect(actions.prefix(2) == [.cancelTimer(deadline), .tearDown(generation: 1)])
        #expect(driven.machine.state == .waiting(attempt: 2, until: driven.clock.now() + .seconds(1)))
        #expect(driven.machine.recovery?.lastError == "media failed: ICE failed; ICE restart failed: the signaling connection closed")
    }

    @Test func withoutICERestartFirstAMediaFailureRebuilds() throws {
        var driven = Driven.connected(Self.configuration(Self.steady(), iceRestartFirst: false))
        let actions = driven.send(.mediaFailed(generation: 1, reason: "ICE failed"))
        #expect(actions == [.report(.reconnecting(attempt: 1)), .tearDown(generation: 1), .schedule(try Self.token(actions), after: .milliseconds(500))])
        #expect(driven.machine.recovery?.reason == "media failed: ICE failed")
    }

    // MARK: Fences and endings

    @Test func eventsOfAnOldLinkAreIgnored() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        let dropped = driven.send(.linkLost(generation: 1, reason: "Janus detached our VideoRoom handle"))
        let firstWait = try Self.token(dropped)
        _ = try Self.rejoin(&driven, after: dropped, attempt: 1, link: 2)
        let rejoining = driven.machine.state
        let stale: [Machine.Event] = [
            .joined(generation: 1), .joinFailed(generation: 1, error: "late", isRefusal: true), .linkLost(generation: 1, reason: "late"),
            .mediaFailed(generation: 1, reason: "late"), .refused(generation: 1, reason: "late"), .roomDestroyed(generation: 1),
            .probeMissed(generation: 1, reason: "late"), .probeMissed(generation: 1, reason: "late"), .iceRestarted(generation: 1),
            .iceRestartFailed(generation: 1, error: "late"), .timerFired(firstWait), .joined(generation: 3),
        ]
        for event in stale {
            #expect(driven.send(event) == [], "\(event)")
            #expect(driven.machine.state == rejoining, "\(event)")
        }
        #expect(driven.send(.joined(generation: 2)).last == .report(.connected))
        for event in stale { #expect(driven.send(event) == [], "\(event)") }
        #expect(driven.machine.state == .connected(generation: 2))
    }

    @Test func stopWhileWaitingTearsDownAndEndsLeft() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        let wait = try Self.token(driven.send(.linkLost(generation: 1, reason: "the signaling connection closed")))
        #expect(driven.send(.stop) == [.cancelTimer(wait), .tearDown(generation: 1), .end(.left)])
        #expect(driven.machine.state == .ended(.left))
        #expect(driven.machine.recovery == nil)
        driven.clock.advance(by: .seconds(1))
        #expect(driven.send(.timerFired(wait)) == [])
        #expect(driven.send(.stop) == [])
        #expect(driven.send(.start) == [])
    }

    @Test func stopBeforeStartingOnlyEnds() {
        var driven = Driven(Self.configuration(.standard))
        #expect(driven.send(.stop) == [.end(.left)])
        #expect(driven.send(.start) == [])
    }

    /// As JanusAudience.handle (JanusAudience.swift:185-196): no retry after these.
    @Test func aKickOrADestroyedRoomEndsAtOnce() {
        var kicked = Driven.connected(Self.configuration(.standard))
        #expect(kicked.send(.refused(generation: 1, reason: "kicked out of the room")) == [
            .tearDown(generation: 1), .end(.refused("kicked out of the room")),
        ])
        var destroyed = Driven.connected(Self.configuration(.standard))
        #expect(destroyed.send(.roomDestroyed(generation: 1)) == [.tearDown(generation: 1), .end(.roomDestroyed)])
    }

    // MARK: Probes

    /// As JanusAudience+Link.swift's health probe: two keepalives unanswered in a row lose the link.
    @Test func twoMissedProbesLoseTheLink() throws {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        #expect(driven.send(.probeMissed(generation: 1, reason: "Janus stopped answering")) == [])
        #expect(driven.machine.state == .connected(generation: 1))
        let actions = driven.send(.probeMissed(generation: 1, reason: "Janus stopped answering"))
        #expect(actions == [.report(.reconnecting(attempt: 1)), .tearDown(generation: 1), .schedule(try Self.token(actions), after: .milliseconds(500))])
        #expect(driven.machine.recovery?.reason == "Janus stopped answering")
    }

    @Test func anAnsweredProbeResetsTheMisses() {
        var driven = Driven.connected(Self.configuration(Self.steady()))
        #expect(driven.send(.probeMissed(generation: 1, reason: "Janus stopped answering")) == [])
        #expect(driven.send(.probeAnswered(generation: 1)) == [])
        #expect(driven.send(.probeMissed(generation: 1, reason: "Janus stopped answering")) == [])
        #expect(driven.machine.state == .connected(generation: 1))
        #expect(driven.send(.probeMissed(generation: 1, reason: "Janus stopped answering")).first == .report(.reconnecting(attempt: 1)))
    }

    // MARK: Helpers

    /// Waits out the scheduled delay in `actions` and lets attempt `attempt` connect link `link`.
    static func rejoin(_ driven: inout Driven, after actions: [Action], attempt: Int, link: Int) throws -> [Action] {
        let timer = try token(actions)
        driven.clock.advance(by: try #require(remaining(driven), "not waiting: \(driven.machine.state)"))
        let connect = driven.send(.timerFired(timer))
        #expect(connect == [.connect(generation: link)])
        #expect(driven.machine.state == .rejoining(attempt: attempt, generation: link))
        return connect
    }

    /// The time left until the waiting attempt starts.
    static func remaining(_ driven: Driven) -> Duration? {
        guard case .waiting(_, let until) = driven.machine.state else { return nil }
        return until - driven.clock.now()
    }
}
