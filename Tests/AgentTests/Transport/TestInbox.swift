import Foundation
import Synchronization

struct InboxTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Collects values posted from callbacks on any thread and lets a test await the first one that
/// matches, with a deadline instead of a sleep.
final class TestInbox<T: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        /// Looks at everything posted so far and returns the awaited value once it is there.
        let match: @Sendable ([T]) -> T?
        let continuation: CheckedContinuation<T, Error>
    }

    private struct State {
        var items: [T] = []
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    var items: [T] { state.withLock { $0.items } }

    func post(_ item: T) {
        let ready = state.withLock { state -> [(Waiter, T)] in
            state.items.append(item)
            var ready: [(Waiter, T)] = []
            state.waiters.removeAll { waiter in
                guard let value = waiter.match(state.items) else { return false }
                ready.append((waiter, value))
                return true
            }
            return ready
        }
        ready.forEach { waiter, value in waiter.continuation.resume(returning: value) }
    }

    func first(
        _ what: String, within seconds: Double = 10, where predicate: @escaping @Sendable (T) -> Bool
    ) async throws -> T {
        try await nth(1, what, within: seconds, where: predicate)
    }

    /// The `count`-th posted value that matches `predicate`.
    func nth(
        _ count: Int, _ what: String, within seconds: Double = 10, where predicate: @escaping @Sendable (T) -> Bool
    ) async throws -> T {
        let match: @Sendable ([T]) -> T? = { items in
            var seen = 0
            for item in items where predicate(item) {
                seen += 1
                if seen == count { return item }
            }
            return nil
        }
        return try await withCheckedThrowingContinuation { continuation in
            let (found, id) = state.withLock { state -> (T?, Int) in
                if let item = match(state.items) { return (item, -1) }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, match: match, continuation: continuation))
                return (nil, state.nextID)
            }
            if let found {
                continuation.resume(returning: found)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                let expired = state.withLock { state -> Waiter? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index)
                }
                expired?.continuation.resume(throwing: InboxTimeout(what: what))
            }
        }
    }
}
