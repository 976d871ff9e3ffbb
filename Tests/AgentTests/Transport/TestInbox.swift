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
        let predicate: @Sendable (T) -> Bool
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
        let ready = state.withLock { state -> [Waiter] in
            state.items.append(item)
            let matching = state.waiters.filter { $0.predicate(item) }
            state.waiters.removeAll { $0.predicate(item) }
            return matching
        }
        ready.forEach { $0.continuation.resume(returning: item) }
    }

    func first(
        _ what: String, within seconds: Double = 10, where predicate: @escaping @Sendable (T) -> Bool
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let (found, id) = state.withLock { state -> (T?, Int) in
                if let item = state.items.first(where: predicate) { return (item, -1) }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, predicate: predicate, continuation: continuation))
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
