import Foundation
import TestSupport

/// The agentd executable `swift build --build-tests` put beside the test bundle.
enum AgentdBinary {
    static var path: String { builtProduct("agentd") }

    /// An executable of this package (`agentd`, `agentd-samples`) from the same build.
    static func builtProduct(_ name: String) -> String {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests.path }
        return Repository.root.appendingPathComponent(".build/debug/\(name)").path
    }
}
