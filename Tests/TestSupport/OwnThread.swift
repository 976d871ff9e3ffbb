import Foundation

/// Runs blocking work (a raw socket read, a wait on a child process) on a thread of its own, off
/// Swift's cooperative pool. The pool has one thread per core (two here), and a test that blocks
/// them starves whatever else runs on the pool, the in-process daemon under test included: its
/// answer never comes, and the test's own read times out.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
