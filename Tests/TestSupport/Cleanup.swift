/// A `defer` whose cleanup awaits, which a `defer` block cannot (Swift 6.3): runs `body`, then
/// `cleanup` on every path, and returns what `body` returned or throws what it threw. For
/// cleanup the rest of the test must wait for, such as taking the lab's packet loss away.
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return result
}
