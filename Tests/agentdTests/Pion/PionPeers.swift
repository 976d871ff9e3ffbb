import Foundation
import TestSupport

/// The Pion (Go WebRTC) test peers in peers/pion, which `peers/pion/build` builds offline from
/// Debian's Go packages into .build/pion/ (scripts/test builds them; a test builds them too, the
/// script being quick when they are up to date).
enum PionPeers {
    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
    }

    static var publisher: String { Repository.root.appendingPathComponent(".build/pion/publisher").path }
    static var subscriber: String { Repository.root.appendingPathComponent(".build/pion/subscriber").path }

    /// Runs peers/pion/build; a failure says what to install.
    static func build() async throws {
        let script = Repository.root.appendingPathComponent("peers/pion/build").path
        let result = try await runTool(script, [], includeStderr: true)
        guard result.status == 0 else {
            throw BuildFailure(description: "peers/pion/build exited \(result.status) (scripts/setup installs golang-go and "
                + "golang-github-pion-webrtc.v3-dev): \(result.output.suffix(2000))")
        }
    }

    /// A peer's `summary.json` (or `--summary` file) as a dictionary.
    static func summary(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw BuildFailure(description: "\(path) is not a JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }
}
