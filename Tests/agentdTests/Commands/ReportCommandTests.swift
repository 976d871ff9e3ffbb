import Agent
import Foundation
import Recorder
import RecordingReport
import TestSupport
import Testing

@testable import agentd

@Suite struct ReportCommandTests {
    /// A recording directory with a manifest of one participant (no media files: the report
    /// says so in its notes) and a connection gap.
    static func recording(_ scratch: ScratchDirectory, display: String = "Alice") throws -> String {
        let out = scratch.path("rec")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var manifest = RecordingManifest(room: "demo", server: "ws://10.77.0.2:8188/", startedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                         state: .finished)
        manifest.durationMs = 12_000
        manifest.participants = [.init(id: "1", display: display, name: "Alice", joinedMs: 1000, leftMs: 9000,
                                       stats: .init(audio: .init(packets: 90, lost: 10, nacks: 4), video: .init(plis: 2)))]
        manifest.gaps = [.init(startMs: 4000, endMs: 5000, attempts: 2)]
        try manifest.encodedJSON().write(to: URL(fileURLWithPath: out + "/manifest.json"))
        return out
    }

    @Test("agentd report DIR writes report.json and report.html and prints a summary naming everyone")
    func reportsADirectory() async throws {
        let scratch = try ScratchDirectory("report-cli")
        let out = try Self.recording(scratch, display: "Alice\u{1B}[31m")
        let output = CapturedOutput()
        #expect(await output.tool().run(["report", out]) == .ok, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("room demo: ") == true, "\(output.stdout)")
        #expect(lines.contains { $0.contains("Alice?[31m") && $0.contains("present 8.0 s") && $0.contains("loss a 10.0%") }, "\(output.stdout)")
        #expect(!output.stdout.contains("\u{1B}"), "a name must not reach the terminal raw")
        #expect(output.stdout.contains("recorder disconnected 4.0 s – 5.0 s (2 attempts)"))
        #expect(lines.last == "wrote \(out)/report.json, \(out)/report.html")
        let report = try JSONDecoder().decode(RecordingReport.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
        #expect(report.participants.map(\.name) == ["Alice"] && report.reconnects == 1)
        #expect(try String(contentsOfFile: out + "/report.html", encoding: .utf8).contains("participant-row"))

        let json = CapturedOutput()
        #expect(await json.tool().run(["report", out, "--json"]) == .ok)
        let decoded = try JSONDecoder().decode(RecordingReport.self, from: Data(json.stdout.utf8))
        #expect(decoded == report)
    }

    @Test("a missing directory or one without a manifest exits 2, a bad manifest 1, each with one error line")
    func errors() async throws {
        let scratch = try ScratchDirectory("report-cli-errors")
        let missing = CapturedOutput()
        #expect(await missing.tool().run(["report", scratch.path("nope")]) == .usage)
        #expect(missing.stderr == "agentd: error: \(scratch.path("nope")) is not a directory (give a recording directory, one with a manifest.json)")
        let empty = CapturedOutput()
        #expect(await empty.tool().run(["report", scratch.directory.path]) == .usage)
        #expect(empty.stderr.contains("has no manifest.json"))
        try Data("{\"version\": 1,".utf8).write(to: URL(fileURLWithPath: scratch.path("manifest.json")))
        let bad = CapturedOutput()
        #expect(await bad.tool().run(["report", scratch.directory.path]) == .failure)
        #expect(bad.stderr.hasPrefix("agentd: error: \(scratch.path("manifest.json")) is not a recording manifest: "), "\(bad.stderr)")
        #expect(!bad.stderr.contains("\n"))
        let noArgument = CapturedOutput()
        #expect(await noArgument.tool().run(["report"]) == .usage)
    }

    @Test("a directory the report cannot be written to exits 5", .enabled(if: getuid() != 0, "root writes anywhere"))
    func unwritable() async throws {
        let scratch = try ScratchDirectory("report-cli-ro")
        let out = try Self.recording(scratch)
        #expect(chmod(out, 0o555) == 0)
        defer { chmod(out, 0o755) }
        let output = CapturedOutput()
        #expect(await output.tool().run(["report", out]) == .outputFailed)
        #expect(output.stderr.hasPrefix("agentd: error: cannot write \(out)/report.json"), "\(output.stderr)")
    }

    @Test("--help shows the usage and the exit codes, and the global help lists report")
    func help() async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["report", "--help"]) == .ok)
        #expect(output.stdout.hasPrefix("usage: agentd report DIR [--json]"), "\(output.stdout)")
        #expect(output.stdout.contains("Exit 2 when DIR is missing"))
        let global = CapturedOutput()
        #expect(await global.tool().run(["--help"]) == .ok)
        #expect(global.stdout.contains("\n  report "))
    }

    @Test("the built binary: exit codes as the contract says")
    func binary() async throws {
        let scratch = try ScratchDirectory("report-bin")
        let out = try Self.recording(scratch)
        let ok = try await runTool(AgentdBinary.path, ["report", out])
        #expect(ok.status == 0, "\(ok.errors)")
        #expect(ok.output.contains("Alice"))
        let missing = try await runTool(AgentdBinary.path, ["report", scratch.path("nope")])
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("agentd: error: "))
    }
}
