import Agent
import Foundation
import Synchronization

/// What `agentd record` says about its connection while it records: one line on stderr when it
/// drops, and one when it is back (with how long the gap was); ``lost`` yields once if it is
/// out of the room for good (retries given up, refused, room destroyed).
///
///     agentd: connection lost at 8.1 s into the recording; reconnecting (the recording goes on)
///     agentd: reconnected after 6.3 s (attempt 4); the gap is listed in manifest.json
final class ConnectionWatch: Sendable {
    private struct State {
        var droppedAt: ContinuousClock.Instant?
        var attempts = 0
    }

    let startedAt: Date
    /// The reason the connection ended for good; yields at most once.
    let lost: AsyncStream<DisconnectReason>
    private let lostContinuation: AsyncStream<DisconnectReason>.Continuation
    private let state = Mutex(State())
    private let say: @Sendable (String) -> Void

    init(startedAt: Date, say: @escaping @Sendable (String) -> Void) {
        self.startedAt = startedAt
        self.say = say
        (lost, lostContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Takes every room event (cheap for all but connection changes: called per frame).
    func note(_ event: RoomEvent) {
        guard case .connectionState(let connection, let at) = event else { return }
        switch connection {
        case .connecting:
            break
        case .reconnecting(let attempt):
            let first = state.withLock { state -> Bool in
                state.attempts = attempt
                guard state.droppedAt == nil else { return false }
                state.droppedAt = .now
                return true
            }
            if first {
                let offset = at.timeIntervalSince(startedAt)
                line(String(format: "agentd: connection lost at %.1f s into the recording; reconnecting (the recording goes on)", offset))
            }
        case .connected:
            let gap = state.withLock { state -> (Duration, Int)? in
                defer { state.droppedAt = nil }
                return state.droppedAt.map { (ContinuousClock.now - $0, state.attempts) }
            }
            if let (length, attempts) = gap {
                let seconds = Double(length.totalNanoseconds) / 1e9
                line(String(format: "agentd: reconnected after %.1f s (attempt %d); the gap is listed in manifest.json", seconds, attempts))
            }
        case .disconnected(let reason):
            if reason != .left { lostContinuation.yield(reason) }
            lostContinuation.finish()
        }
    }

    private func line(_ text: String) {
        ProgressLine().finish()
        say(text)
    }
}
