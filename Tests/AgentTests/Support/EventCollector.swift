import Foundation
import Synchronization

/// Thrown when an awaited test condition does not happen before its deadline.
struct DeadlineExceeded: Error, CustomStringConvertible {
    let what: String
    let limit: Duration
    var description: String { "\(what) did not happen within \(limit)" }
}

/// Drains an `AsyncStream` in the background so a test can await the next element with a
/// deadline instead of sleeping. Single consumer: one `next` at a time.
final class EventCollector<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Element?, Error>
    }

    private struct State {
        var buffer: [Element] = []
        var finished = false
        var waiter: Waiter?
        var nextWaiterID: UInt64 = 0
    }

    private let state = Mutex(State())

    init(_ stream: AsyncStream<Element>) {
        Task { [self] in
            for await element in stream { deliver(element) }
            finish()
        }
    }

    /// The next element, nil once the stream has finished.
    /// - Throws: ``DeadlineExceeded`` when nothing arrives within `limit`.
    func next(within limit: Duration) async throws -> Element? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timer = Task { [self] in
            try await Task.sleep(for: limit)
            let waiter = state.withLock { state -> Waiter? in
                guard state.waiter?.id == id else { return nil }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.continuation.resume(throwing: DeadlineExceeded(what: "next stream element", limit: limit))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let immediate = state.withLock { state -> Element?? in
                if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = Waiter(id: id, continuation: continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Skips elements until one satisfies `predicate`; nil when the stream ends first.
    func first(within limit: Duration, where predicate: (Element) -> Bool) async throws -> Element? {
        let deadline = ContinuousClock.now + limit
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw DeadlineExceeded(what: "matching stream element", limit: limit) }
            guard let element = try await next(within: remaining) else { return nil }
            if predicate(element) { return element }
        }
    }

    private func deliver(_ element: Element) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter else {
                state.buffer.append(element)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume(returning: element)
    }

    private func finish() {
        let waiter = state.withLock { state -> Waiter? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.continuation.resume(returning: nil)
    }
}
