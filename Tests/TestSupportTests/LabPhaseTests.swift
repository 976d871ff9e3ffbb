import Foundation
import TestSupport
import Testing

/// A test that restarts Janus or adds netem loss must run in scripts/test's disruptive phase, or
/// the tests beside it fail for no fault of theirs (a CI run saw "a missing room exits 3" get
/// "connection refused" while RecordReconnect restarted Janus). This reads the test sources:
/// each file that runs such a lab command gates on `shouldRunDisruptive`, and its suite is in
/// the disruptive phase's filter.
@Suite struct LabPhaseTests {
    /// `RecordingChecks.lab(...)` arguments that disturb the lab for everyone.
    static let disruptiveCommands = [#"lab("restart-janus""#, #""--loss""#]

    @Test("every test that restarts Janus or adds loss runs in the disruptive phase, and only there")
    func disruptiveTestsHaveAPhaseOfTheirOwn() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/test"), encoding: .utf8)
        let filterLine = try #require(script.split(separator: "\n").first { $0.contains("--filter 'RecordReconnect") },
                                      "scripts/test has no disruptive phase filter")
        var problems: [String] = []
        var found = 0
        for file in try ModuleImportsTests.swiftFiles(under: Repository.root.appendingPathComponent("Tests")) {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard Self.disruptiveCommands.contains(where: text.contains), !file.path.hasSuffix("LabPhaseTests.swift") else { continue }
            found += 1
            let path = ModuleImportsTests.repositoryPath(of: file)
            if !text.contains("LabEnvironment.shouldRunDisruptive") {
                problems.append("\(path): runs a disruptive lab command but does not gate on shouldRunDisruptive")
            }
            let suite = file.deletingPathExtension().lastPathComponent
            if !filterLine.contains(suite) {
                problems.append("\(path): \(suite) is not in scripts/test's disruptive phase filter")
            }
        }
        // The files this is about exist: a rename must not make the check pass on nothing.
        #expect(found >= 4, "found \(found) files with disruptive lab commands")
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }
}
