import Synchronization

/// A value several tasks update under a lock, shareable by escaping closures (a `Mutex` alone
/// cannot be captured: it is not copyable).
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ initial: Value) {
        value = Mutex(initial)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        value.withLock { body(&$0) }
    }

    var current: Value { value.withLock { $0 } }
}
