import Foundation
import TestSupport

/// The agentd executable `swift build --build-tests` put beside the test bundle.
enum AgentdBinary {
    static var path: String {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("agentd")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests.path }
        return Repository.root.appendingPathComponent(".build/debug/agentd").path
    }
}
