/// A readers-writer lock for tests that touch process-wide C state. usrsctp is one stack per
/// process: most tests may use it side by side (shared), but the test that checks the stack
/// starts and finishes per use needs it alone (exclusive). Swift Testing runs suites in
/// parallel, so both kinds take this lock.
public actor SharedResourceLock {
    public static let usrsctp = SharedResourceLock()
    /// The lab's Janus and the machine's two cores: interop tests with real peers (aiortc,
    /// Chromium) run one at a time, or a starved browser sends irregular media that reads as
    /// our fault.
    public static let lab = SharedResourceLock()

    private var readers = 0
    private var writer = false
    private var waiters: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    private func acquire(exclusive: Bool) async {
        if waiters.isEmpty, canTake(exclusive: exclusive) {
            take(exclusive: exclusive)
            return
        }
        await withCheckedContinuation { waiters.append((exclusive, $0)) }
    }

    private func release(exclusive: Bool) {
        if exclusive { writer = false } else { readers -= 1 }
        // Wake waiters in order for as long as each is compatible with what is held.
        while let next = waiters.first, canTake(exclusive: next.exclusive) {
            waiters.removeFirst()
            take(exclusive: next.exclusive)
            next.continuation.resume()
        }
    }

    private func canTake(exclusive: Bool) -> Bool {
        exclusive ? (!writer && readers == 0) : !writer
    }

    private func take(exclusive: Bool) {
        if exclusive { writer = true } else { readers += 1 }
    }

    public nonisolated func withShared<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await acquire(exclusive: false)
        do {
            let result = try await body()
            await release(exclusive: false)
            return result
        } catch {
            await release(exclusive: false)
            throw error
        }
    }

    public nonisolated func withExclusive<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await acquire(exclusive: true)
        do {
            let result = try await body()
            await release(exclusive: true)
            return result
        } catch {
            await release(exclusive: true)
            throw error
        }
    }
}
