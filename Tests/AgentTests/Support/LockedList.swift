import Synchronization

/// A list that several threads append to and tests read, as a class so closures can share it
/// (a `Mutex` itself cannot be captured).
final class LockedList<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    func append(_ element: Element) { elements.withLock { $0.append(element) } }

    var all: [Element] { elements.withLock { $0 } }
}
