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
        let filterLine = try Self.scriptLine(containing: "--filter 'RecordReconnect")
        var problems: [String] = []
        let files = try Self.testFiles { text in Self.disruptiveCommands.contains(where: text.contains) }
        for (path, suite, text) in files {
            if !text.contains("LabEnvironment.shouldRunDisruptive") {
                problems.append("\(path): runs a disruptive lab command but does not gate on shouldRunDisruptive")
            }
            if !filterLine.contains(suite) {
                problems.append("\(path): \(suite) is not in scripts/test's disruptive phase filter")
            }
        }
        // The files this is about exist: a rename must not make the check pass on nothing.
        #expect(files.count >= 4, "found \(files.count) files with disruptive lab commands")
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    @Test("every latency-bound lab suite is in scripts/test's latency phase filter")
    func latencyBoundTestsRunInTheLatencyPhase() throws {
        let filterLine = try Self.scriptLine(containing: "AGENTD_LAB_PHASE=latency")
        let files = try Self.testFiles { $0.contains("LabEnvironment.shouldRunLatencyBound") }
        let problems = files.filter { !filterLine.contains($0.suite) }.map { "\($0.path): \($0.suite) is not in the latency phase filter" }
        #expect(files.count >= 1, "found \(files.count) latency-bound lab suites")
        #expect(problems.isEmpty, "\n\(problems.joined(separator: "\n"))")
    }

    /// The line of scripts/test that holds `marker` (a phase's filter).
    static func scriptLine(containing marker: String) throws -> Substring {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/test"), encoding: .utf8)
        return try #require(script.split(separator: "\n").first { $0.contains(marker) }, "scripts/test has no line with \(marker)")
    }

    /// Test sources (but this one) whose text `matches`: repository path, suite (file) name, text.
    static func testFiles(_ matches: (String) -> Bool) throws -> [(path: String, suite: String, text: String)] {
        try ModuleImportsTests.swiftFiles(under: Repository.root.appendingPathComponent("Tests")).compactMap { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            guard matches(text), !file.path.hasSuffix("LabPhaseTests.swift") else { return nil }
            return (ModuleImportsTests.repositoryPath(of: file), file.deletingPathExtension().lastPathComponent, text)
        }
    }
}
