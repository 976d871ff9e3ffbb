/// A closure to keep in a `Mutex`: boxed in a class, so reading it back out does not wrap it.
///
/// Swift 6.3 reabstracts a function value stored directly in a generic container such as
/// `Mutex<(() -> Void)?>` on every `withLock { $0 }`, and the write-back keeps the wrapper: each
/// read adds thunks, so the n-th call runs through ~2n of them (quadratic time, a stack that
/// deepens until it overflows; a daemon's API thread reached 840 KB in 20 minutes). A class
/// reference is copied, never reabstracted. LAB.md has the measurement.
final class LockedCallback<Signature: Sendable>: Sendable {
    let call: Signature

    init(_ call: Signature) {
        self.call = call
    }
}
