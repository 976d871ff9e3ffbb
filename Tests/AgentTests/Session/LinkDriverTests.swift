import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AgentCore

/// ``LinkDriver`` running its machine on a fake target: a manual clock and manual timers, no
/// sockets and no sleeps. Each test reads the exact calls the target got, in order.
@Suite struct LinkDriverTests {
    typealias Random = ReconnectPolicyTests.SeededRandom

    /// Timers on a ``ManualMediaClock``: a sleep returns once ``advance(by:)`` has moved the
    /// clock past its deadline, and throws when its task is cancelled.
    final class ManualTimers: Sendable {
        private struct Sleeper {
            let id: Int
            let deadline: MediaInstant
            let continuation: CheckedContinuation<Void, any Error>
        }

        private struct State {
            var nextID = 0
            var sleepers: [Sleeper] = []
            /// Cancelled before their continuation was stored.
            var cancelled: Set<Int> = []
        }

        let clock = ManualMediaClock()
        private let state = Mutex(State())

        /// Sleeps waiting for the clock.
        var pending: Int { state.withLock { $0.sleepers.count } }

        func sleep(_ duration: Duration) async throws {
            let id = state.withLock { state in
                state.nextID += 1
                return state.nextID
            }
            let deadline = clock.now() + duration
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state in
                        if state.cancelled.remove(id) != nil { return true }
                        state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let sleeper = state.withLock { state -> Sleeper? in
                    guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                        state.cancelled.insert(id)
                        return nil
                    }
                    return state.sleepers.remove(at: index)
                }
                sleeper?.continuation.resume(throwing: CancellationError())
            }
        }

        /// Moves the clock and wakes every sleep that is due.
        func advance(by duration: Duration) {
            let now = clock.advance(by: duration)
            let due = state.withLock { state in
                let due = state.sleepers.filter { $0.deadline <= now }
                state.sleepers.removeAll { $0.deadline <= now }
                return due
            }
            for sleeper in due { sleeper.continuation.resume() }
        }
    }

    struct FakeError: Error, CustomStringConvertible {
        let description: String
        var isRefusal = false
    }

    /// A target that records every call and does what its script says.
    actor FakeLink: LinkDriverTarget {
        enum Call: Equatable, CustomStringConvertible {
            case build(Int)
            case tearDown(Int)
            case restartICE(Int)
            case resync(MediaInstant)
            case report(ConnectionState, reason: String?)
            case end(DisconnectReason)

            var description: String {
                switch self {
                case .build(let link): "build \(link)"
                case .tearDown(let link): "tearDown \(link)"
                case .restartICE(let link): "restartICE \(link)"
                case .resync(let at): "resync \(at)"
                case .report(let state, let reason): "report \(state) (\(reason ?? "-"))"
                case .end(let reason): "end \(reason)"
                }
            }
        }

        enum Outcome {
            case succeed
            case fail(FakeError)
            /// Waits until ``release(_:)``, or fails when the link is torn down meanwhile (as a
            /// build whose socket was closed does).
            case hold
        }

        private(set) var calls: [Call] = []
        /// What each build does, by link; a link not listed succeeds.
        var builds: [Int: Outcome] = [:]
        /// What each ICE restart throws; nil: it works.
        var restartError: FakeError?
        var holdsRestart = false
        private var held: [Int: CheckedContinuation<Void, any Error>] = [:]
        private var heldRestart: CheckedContinuation<Void, any Error>?

        func script(_ link: Int, _ outcome: Outcome) { builds[link] = outcome }
        func failRestarts(_ error: FakeError?, hold: Bool = false) {
            restartError = error
            holdsRestart = hold
        }

        var isHolding: Bool { !held.isEmpty }
        var isHoldingRestart: Bool { heldRestart != nil }

        func release(_ link: Int, throwing error: FakeError? = nil) {
            guard let continuation = held.removeValue(forKey: link) else { return }
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }

        func buildLink(generation: Int) async throws {
            calls.append(.build(generation))
            switch builds[generation] ?? .succeed {
            case .succeed: return
            case .fail(let error): throw error
            case .hold: try await withCheckedThrowingContinuation { held[generation] = $0 }
            }
        }

        nonisolated func isRefusal(_ error: any Error) -> Bool {
            (error as? FakeError)?.isRefusal ?? false
        }

        func tearDownLink(generation: Int) async {
            calls.append(.tearDown(generation))
            held.removeValue(forKey: generation)?.resume(throwing: FakeError(description: "the socket closed"))
            heldRestart?.resume(throwing: FakeError(description: "the socket closed"))
            heldRestart = nil
        }

        func restartICE(generation: Int) async throws {
            calls.append(.restartICE(generation))
            if holdsRestart { try await withCheckedThrowingContinuation { heldRestart = $0 } }
            if let restartError { throw restartError }
        }

        func resync(droppedAt: MediaInstant) async {
            calls.append(.resync(droppedAt))
        }

        func report(_ state: ConnectionState, recovery: LinkStateMachine.Recovery?) async {
            calls.append(.report(state, reason: recovery?.reason))
        }

        func end(_ reason: DisconnectReason) async {
            calls.append(.end(reason))
        }
    }

    /// A driver on manual timers, bound to a fake link.
    struct Fixture {
        let timers = ManualTimers()
        let link = FakeLink()
        let driver: LinkDriver

        init(_ configuration: LinkStateMachine.Configuration) {
            let timers = self.timers
            driver = LinkDriver(configuration: configuration, clock: timers.clock, random: Random(state: 1), sleep: { try await timers.sleep($0) })
            driver.bind(link)
        }

        /// Waits until the target has had `count` calls (the driver runs them on its own task).
        func calls(_ count: Int, _ what: String = #function) async throws -> [FakeLink.Call] {
            try await pollUntil(timeout: .seconds(5), "\(count) calls (\(what))") { await link.calls.count >= count }
            return await link.calls
        }

        /// Waits for a pending timer, then lets it fire.
        func fireTimer(after delay: Duration) async throws {
            try await pollUntil(timeout: .seconds(5), "a timer") { timers.pending > 0 }
            timers.advance(by: delay)
        }

        /// Started and joined on link 1 (calls: connecting, build 1, connected).
        static func connected(_ configuration: LinkStateMachine.Configuration) async throws -> Fixture {
            let fixture = Fixture(configuration)
            try await fixture.driver.start()
            return fixture
        }
    }

    /// Fixed delays (0.5 s, 1 s, 2 s, …), so the times in the texts are known.
    static func steady(attempts: Int? = nil) -> ReconnectPolicy {
        ReconnectPolicy(jitter: 0, maximumAttempts: attempts, maximumDuration: .seconds(120))
    }

    static func link(attempts: Int? = nil) -> LinkStateMachine.Configuration {
        LinkStateMachine.Configuration(reconnect: steady(attempts: attempts), iceRestartTimeout: .seconds(10), wording: .link)
    }

    static func rejoin(_ policy: ReconnectPolicy = steady()) -> LinkStateMachine.Configuration {
        LinkStateMachine.Configuration(reconnect: policy, iceRestartFirst: false, wording: .rejoin)
    }

    static let joined: [FakeLink.Call] = [.report(.connecting, reason: nil), .build(1), .report(.connected, reason: nil)]

    @Test("a drop: reconnecting(1), tear down, wait, rebuild, resync as of the drop, connected")
    func dropRejoinResync() async throws {
        let fixture = try await Fixture.connected(Self.link())
        #expect(await fixture.link.calls == Self.joined)
        let droppedAt = fixture.timers.clock.now()
        fixture.driver.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        try await fixture.fireTimer(after: .milliseconds(500))
        let calls = try await fixture.calls(8)
        #expect(Array(calls.dropFirst(3)) == [
            .report(.reconnecting(attempt: 1), reason: "the signaling connection closed"), .tearDown(1), .build(2),
            .resync(droppedAt), .report(.connected, reason: nil),
        ])
        #expect(fixture.driver.state == .connected(generation: 2))
        await fixture.driver.stop()
        #expect(await fixture.link.calls.suffix(2) == [.tearDown(2), .end(.left)])
    }

    @Test("media failed with signaling up: an ICE restart on the same link, then connected, no rebuild")
    func iceRestartFirst() async throws {
        let fixture = try await Fixture.connected(Self.link())
        fixture.driver.send(.mediaFailed(generation: 1, reason: "ICE failed"))
        let calls = try await fixture.calls(6)
        #expect(Array(calls.dropFirst(3)) == [
            .report(.reconnecting(attempt: 1), reason: "media failed: ICE failed"), .restartICE(1), .report(.connected, reason: nil),
        ])
        #expect(fixture.driver.state == .connected(generation: 1))
        // The restart's deadline went with it: nothing happens when it would have passed.
        fixture.timers.advance(by: .seconds(11))
        await fixture.driver.stop()
        #expect(await fixture.link.calls.dropFirst(6) == [.tearDown(1), .end(.left)])
    }

    @Test("an ICE restart that misses its deadline: the link is rebuilt as attempt 2")
    func iceRestartTimesOut() async throws {
        let fixture = try await Fixture.connected(Self.link())
        await fixture.link.failRestarts(nil, hold: true)
        fixture.driver.send(.mediaFailed(generation: 1, reason: "ICE failed"))
        try await pollUntil(timeout: .seconds(5), "the restart") { await fixture.link.isHoldingRestart }
        fixture.timers.advance(by: .seconds(10))
        let calls = try await fixture.calls(7)
        #expect(Array(calls.dropFirst(3)) == [
            .report(.reconnecting(attempt: 1), reason: "media failed: ICE failed"), .restartICE(1), .tearDown(1),
            .report(.reconnecting(attempt: 2), reason: "media failed: ICE failed"),
        ])
        try await fixture.fireTimer(after: .seconds(1))
        let rebuilt = try await fixture.calls(10)
        #expect(Array(rebuilt.dropFirst(7)) == [.build(2), .resync(fixture.timers.clock.now() + .seconds(-11)), .report(.connected, reason: nil)])
        await fixture.driver.stop()
    }

    @Test("a rejoin refused: the end at once with the server's words, and no further attempt")
    func refusalEnds() async throws {
        let fixture = try await Fixture.connected(Self.link())
        await fixture.link.script(2, .fail(FakeError(description: "403 Unauthorized request", isRefusal: true)))
        fixture.driver.send(.linkLost(generation: 1, reason: "Janus no longer knows our session (458 No such session)"))
        try await fixture.fireTimer(after: .milliseconds(500))
        let calls = try await fixture.calls(8)
        #expect(Array(calls.dropFirst(5)) == [.build(2), .tearDown(2), .end(.refused("403 Unauthorized request"))])
        #expect(fixture.timers.pending == 0)
        fixture.timers.advance(by: .seconds(60))
        await fixture.driver.stop()
        #expect(await fixture.link.calls.count == 8, "no attempt and no second end after a refusal")
    }

    @Test("a bot's rejoin refused: the drop and the refusal in one line")
    func refusalInTheBotsWords() async throws {
        let fixture = try await Fixture.connected(Self.rejoin())
        await fixture.link.script(2, .fail(FakeError(description: "refused: 403 Unauthorized request", isRefusal: true)))
        fixture.driver.send(.linkLost(generation: 1, reason: "the signaling connection to Janus closed"))
        try await fixture.fireTimer(after: .milliseconds(500))
        let calls = try await fixture.calls(8)
        #expect(Array(calls.dropFirst(3)) == [
            .tearDown(1), .report(.reconnecting(attempt: 1), reason: "the signaling connection to Janus closed"), .build(2), .tearDown(2),
            .end(.refused("the signaling connection to Janus closed; rejoining was refused: refused: 403 Unauthorized request")),
        ])
        await fixture.driver.stop()
    }

    @Test("retries up to the policy's limit, then gaveUp with the attempts, the time and the last error")
    func givesUpAtTheLimit() async throws {
        let fixture = try await Fixture.connected(Self.link(attempts: 2))
        await fixture.link.script(2, .fail(FakeError(description: "connect failed: refused")))
        await fixture.link.script(3, .fail(FakeError(description: "connect failed: unreachable")))
        fixture.driver.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        try await fixture.fireTimer(after: .milliseconds(500))
        _ = try await fixture.calls(8)
        try await fixture.fireTimer(after: .seconds(1))
        let calls = try await fixture.calls(11)
        #expect(Array(calls.dropFirst(3)) == [
            .report(.reconnecting(attempt: 1), reason: "the signaling connection closed"), .tearDown(1),
            .build(2), .tearDown(2), .report(.reconnecting(attempt: 2), reason: "the signaling connection closed"),
            .build(3), .tearDown(3), .end(.gaveUp("gave up after 2 attempt(s) in 1.5 s: connect failed: unreachable")),
        ])
        await fixture.driver.stop()
        #expect(await fixture.link.calls.count == 11)
    }

    @Test("a bot gives up in its words; told never to retry, it ends at the drop with the drop's reason")
    func givesUpInTheBotsWords() async throws {
        let limited = try await Fixture.connected(Self.rejoin(Self.steady(attempts: 1)))
        await limited.link.script(2, .fail(FakeError(description: "connect failed")))
        limited.driver.send(.linkLost(generation: 1, reason: "Janus hung up the media connection (ICE failed)"))
        try await limited.fireTimer(after: .milliseconds(500))
        let calls = try await limited.calls(8)
        #expect(calls.last == .end(.gaveUp("Janus hung up the media connection (ICE failed); gave up after 1 attempt(s) to rejoin")))
        await limited.driver.stop()

        let never = try await Fixture.connected(Self.rejoin(.never))
        never.driver.send(.linkLost(generation: 1, reason: "the signaling connection to Janus closed"))
        let ended = try await never.calls(5)
        #expect(Array(ended.dropFirst(3)) == [.tearDown(1), .end(.gaveUp("the signaling connection to Janus closed"))])
        #expect(never.timers.pending == 0)
        await never.driver.stop()
        #expect(await never.link.calls.count == 5, "no reconnecting, no attempt")
    }

    @Test("stop while waiting to retry: the timer goes, the end is left, and no further build")
    func stopWhileWaiting() async throws {
        let fixture = try await Fixture.connected(Self.link())
        fixture.driver.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        try await pollUntil(timeout: .seconds(5), "the retry timer") { fixture.timers.pending == 1 }
        await fixture.driver.stop()
        #expect(fixture.timers.pending == 0, "the retry timer was cancelled")
        fixture.timers.advance(by: .seconds(10))
        let calls = await fixture.link.calls
        #expect(Array(calls.dropFirst(3)) == [
            .report(.reconnecting(attempt: 1), reason: "the signaling connection closed"), .tearDown(1), .tearDown(1), .end(.left),
        ])
        #expect(!calls.contains(.build(2)))
        #expect(fixture.driver.state == .ended(.left))
    }

    @Test("stop while a rejoin is being built: its link is torn down, the build returns, torn down again, then left")
    func stopWhileBuilding() async throws {
        let fixture = try await Fixture.connected(Self.link())
        await fixture.link.script(2, .hold)
        fixture.driver.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        try await fixture.fireTimer(after: .milliseconds(500))
        try await pollUntil(timeout: .seconds(5), "the rejoin") { await fixture.link.isHolding }
        await fixture.driver.stop()
        let calls = await fixture.link.calls
        #expect(Array(calls.dropFirst(5)) == [.build(2), .tearDown(2), .tearDown(2), .end(.left)])
    }

    @Test("events of a torn-down link are ignored; the current link's are heard")
    func staleLinksIgnored() async throws {
        let fixture = try await Fixture.connected(Self.link())
        fixture.driver.send(.linkLost(generation: 1, reason: "the signaling connection closed"))
        try await fixture.fireTimer(after: .milliseconds(500))
        _ = try await fixture.calls(8)
        for event: LinkStateMachine.Event in [
            .linkLost(generation: 1, reason: "old"), .mediaFailed(generation: 1, reason: "old"), .refused(generation: 1, reason: "old"),
            .roomDestroyed(generation: 1), .probeMissed(generation: 1, reason: "old"), .probeMissed(generation: 1, reason: "old"),
            .joined(generation: 1), .joinFailed(generation: 1, error: "old", isRefusal: true),
        ] {
            fixture.driver.send(event)
        }
        fixture.driver.send(.roomDestroyed(generation: 2))
        let calls = try await fixture.calls(10)
        #expect(Array(calls.dropFirst(8)) == [.tearDown(2), .end(.roomDestroyed)])
        await fixture.driver.stop()
        #expect(await fixture.link.calls.count == 10)
    }

    @Test("two probes missed in a row make the link lost; an answer in between resets the count")
    func probesMissed() async throws {
        let fixture = try await Fixture.connected(Self.link())
        fixture.driver.send(.probeMissed(generation: 1, reason: "first miss"))
        fixture.driver.send(.probeAnswered(generation: 1))
        fixture.driver.send(.probeMissed(generation: 1, reason: "second miss"))
        fixture.driver.send(.probeMissed(generation: 1, reason: "third miss"))
        let calls = try await fixture.calls(5)
        #expect(Array(calls.dropFirst(3)) == [.report(.reconnecting(attempt: 1), reason: "third miss"), .tearDown(1)])
        await fixture.driver.stop()
    }

    @Test("the first build failing: start throws its error and the machine ends as refused or gaveUp, not retried")
    func firstJoinFails() async throws {
        let refused = Fixture(Self.link())
        await refused.link.script(1, .fail(FakeError(description: "403 Unauthorized request", isRefusal: true)))
        await #expect(throws: FakeError.self) { try await refused.driver.start() }
        #expect(await refused.link.calls == [
            .report(.connecting, reason: nil), .build(1), .tearDown(1), .end(.refused("403 Unauthorized request")),
        ])

        let failed = Fixture(Self.link())
        await failed.link.script(1, .fail(FakeError(description: "426 No such room")))
        await #expect(throws: FakeError.self) { try await failed.driver.start() }
        #expect(await failed.link.calls.last == .end(.gaveUp("426 No such room")))
        #expect(failed.timers.pending == 0)
    }

    @Test("stop before start ends with left; stop while the first build runs: torn down twice around it, start throws its error")
    func stopAroundStart() async throws {
        let idle = Fixture(Self.link())
        await idle.driver.stop()
        #expect(await idle.link.calls == [.end(.left)])

        let joining = Fixture(Self.link())
        await joining.link.script(1, .hold)
        let start = Task { try await joining.driver.start() }
        try await pollUntil(timeout: .seconds(5), "the first build") { await joining.link.isHolding }
        await joining.driver.stop()
        await #expect(throws: FakeError.self, "the build failed when its link was torn down") { try await start.value }
        #expect(await joining.link.calls == [.report(.connecting, reason: nil), .build(1), .tearDown(1), .tearDown(1), .end(.left)])
    }
}
