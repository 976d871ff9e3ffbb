import Foundation
import TestSupport
import Testing

/// Numbers from the command line that the timers and dates downstream cannot hold are usage
/// errors (exit 2, one line naming the option and the limit), never a trap. Run as a child
/// process: a trap here would otherwise take the test runner with it.
@Suite("CommandLimits", .serialized)
struct CommandLimitsTests {
    func run(_ arguments: [String]) async throws -> (status: Int32, stderr: String, stdout: [String]) {
        let process = try ChildProcess(AgentdBinary.path, arguments, name: "agentd \(arguments.first ?? "")")
        defer { process.terminate() }
        try await pollUntil(timeout: .seconds(30), "agentd \(arguments.first ?? "") to exit") { !process.isRunning }
        return (process.exitStatus ?? -1, process.stderr, process.stdoutLines)
    }

    @Test("agentd token --ttl beyond 10 years exits 2 (9.3e18 trapped in the token command, 1e10 after a join)")
    func tokenTTLIsCapped() async throws {
        for ttl in ["9.3e18", "1e10", "315360001"] {
            let (status, stderr, stdout) = try await run(["token", "--secret", "s", "--ttl", ttl])
            #expect(status == 2, "--ttl \(ttl): exit \(status) \(stderr)")
            #expect(stderr.hasPrefix("agentd: error: --ttl '\(ttl)' is not a number of seconds above 0, at most 315360000 (10 years)"), "\(stderr)")
            #expect(stdout.isEmpty)
        }
        let (status, _, stdout) = try await run(["token", "--secret", "s", "--ttl", "315360000"])
        #expect(status == 0)
        let expiry = Int(stdout.first?.split(separator: ",").first ?? "") ?? 0
        #expect(abs(Double(expiry) - Date().timeIntervalSince1970 - 315_360_000) < 60)
    }

    @Test("a --duration beyond 7 days exits 2 before anything opens or joins: record, play and bot")
    func durationIsCapped() async throws {
        let scratch = try ScratchDirectory("duration")
        let recipe = scratch.path("tone.json")
        try Data(#"{"name": "tone", "tracks": {"audio": {"source": "tone"}}}"#.utf8).write(to: URL(fileURLWithPath: recipe))
        let server = ["--server", "ws://127.0.0.1:1/", "--room", "r"]
        let commands: [[String]] = [
            ["record"] + server + ["--out", scratch.path("rec"), "--ice-allow", "lo"],
            ["play"] + server + ["--display", "p", "--audio", scratch.path("missing.wav"), "--ice-allow", "lo"],
            ["bot", recipe] + server + ["--ice-allow", "lo"],
        ]
        for command in commands {
            for duration in ["1e12", "604801", "1e300"] {
                let (status, stderr, _) = try await run(command + ["--duration", duration])
                #expect(status == 2, "\(command[0]) --duration \(duration): exit \(status) \(stderr)")
                #expect(stderr == "agentd: error: --duration '\(duration)' is not a number of seconds above 0, at most 604800 (7 days) (see 'agentd \(command[0]) --help')\n",
                        "\(command[0]): \(stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("rec")), "a refused record made its directory")
    }
}
