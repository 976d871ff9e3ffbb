import Foundation

/// Polls `condition` until it holds or `timeout` passes. For readiness: never a fixed sleep.
/// `condition` may await (a question for an event loop or an actor) rather than block.
public func pollUntil(timeout: Duration, _ what: String, _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        guard ContinuousClock.now < deadline else { throw ChildProcess.Failure(description: "timed out after \(timeout) waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// Paths inside the repository, found from this file's location.
public enum Repository {
    public static let root: URL = URL(fileURLWithPath: #filePath)  // Tests/TestSupport/Polling.swift
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static var python: String { root.appendingPathComponent(".venv/bin/python").path }
    public static func peer(_ script: String) -> String { root.appendingPathComponent("peers/\(script)").path }
    public static var hasPeers: Bool { FileManager.default.isExecutableFile(atPath: python) }
}
