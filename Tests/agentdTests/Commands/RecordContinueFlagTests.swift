import Foundation
import Testing

@testable import Recorder
@testable import agentd

/// `agentd record --continue`: in --help, needs --out (exit 2), excludes --overwrite (exit 2), and
/// refuses a directory it cannot continue with exit 5 before joining, leaving it untouched.
@Suite struct RecordContinueFlagTests {
    @Test func helpListsTheFlag() async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["record", "--help"]) == .ok)
        #expect(output.stdout.contains("--continue"))
        #expect(output.stdout.contains("continued"))
    }

    @Test func needsOutAndExcludesOverwrite() async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["record", "--server", "ws://h/", "--room", "r", "--continue"]) == .usage)
        #expect(output.stderr.hasPrefix("agentd: error: --continue needs --out"), "\(output.stderr)")
        let both = CapturedOutput()
        #expect(await both.tool().run(["record", "--server", "ws://h/", "--room", "r", "--out", "/tmp/x", "--continue", "--overwrite"]) == .usage)
        #expect(both.stderr.hasPrefix("agentd: error: --continue cannot be combined with --overwrite"), "\(both.stderr)")
    }

    @Test func theRequestContinues() throws {
        let plan = try RecordPlan(ParsedArguments(values: ["server": "ws://127.0.0.1:8188/", "room": "r", "out": "/tmp/x"], flags: ["continue"]))
        #expect(plan.recording.existing == .continueRecording)
    }

    @Test("a directory with another room's manifest: exit 5, one line naming both rooms, nothing touched")
    func refusesAnotherRoomsRecording() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("continue-flag-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let manifest = RecordingManifest(room: "elsewhere", server: "ws://x/", startedAt: Date().addingTimeInterval(-10))
        let bytes = try manifest.encodedJSON()
        try bytes.write(to: URL(fileURLWithPath: out + "/manifest.json"))
        let output = CapturedOutput()
        // The lab's unreachable range: nothing is joined, the directory is refused first.
        let code = await output.tool().run(["record", "--server", "ws://10.77.255.1:8188/", "--room", "r", "--out", out, "--continue"])
        #expect(code == .outputFailed)
        #expect(output.stderr.hasPrefix("agentd: error: cannot continue the recording in \(out): it records room 'elsewhere', not 'r'"),
                "\(output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["manifest.json"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json")) == bytes)
    }
}
