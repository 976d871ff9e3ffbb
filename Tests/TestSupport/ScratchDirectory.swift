import Foundation

/// A fresh directory under the system temp dir for one test, removed when released.
public final class ScratchDirectory {
    public let directory: URL

    public init(_ label: String = "scratch") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
