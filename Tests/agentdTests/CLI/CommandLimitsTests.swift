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
        // The pipe's last bytes may be read a moment after the exit.
        try? await pollUntil(timeout: .seconds(2), "its stderr") { !process.stderr.isEmpty || process.exitStatus == 0 }
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

    @Test("--display is bounded for record, play and bot (64 characters, 256 bytes): exit 2")
    func displayIsBounded() async throws {
        let clustered = "a" + String(repeating: "\u{0301}", count: 300)
        let server = ["--server", "ws://127.0.0.1:1/", "--room", "r", "--ice-allow", "lo"]
        for command in [["record"] + server, ["play", "--audio", "/nonexistent.wav"] + server, ["bot", "recipes/tone.json"] + server] {
            for display in [clustered, String(repeating: "d", count: 65)] {
                let (status, stderr, _) = try await run(command + ["--display", display])
                #expect(status == 2, "\(command[0]): exit \(status) \(stderr)")
                #expect(stderr.contains("is not a display name of 1-64 characters and at most 256 bytes"), "\(command[0]): \(stderr)")
            }
        }
    }

    @Test("a server URL's credentials never reach the error line")
    func credentialsAreMaskedOnStderr() async throws {
        let scratch = try ScratchDirectory("creds")
        let (status, stderr, _) = try await run(["record", "--server", "ws://agent:s3cretpw@127.0.0.1:1/", "--room", "r",
                                                 "--out", scratch.path("rec"), "--ice-allow", "lo"])
        #expect(status == 4, "\(stderr)")
        #expect(stderr.contains("ws://***@127.0.0.1:1/") && !stderr.contains("s3cretpw"), "\(stderr)")
    }

    @Test("record's --max-duration, --max-bytes and --idle-timeout are checked before anything opens or joins: exit 2")
    func recordingLimits() async throws {
        let scratch = try ScratchDirectory("limits")
        let record = ["record", "--server", "ws://127.0.0.1:1/", "--room", "r", "--out", scratch.path("rec"), "--ice-allow", "lo"]
        let cases: [(String, String, String)] = [
            ("max-duration", "0", "a positive number of seconds"),
            ("max-duration", "604801", "a number of seconds above 0, at most 604800 (7 days)"),
            ("max-bytes", "0", "a whole number of bytes above 0, optionally with K, M, G or T (powers of 1024), at most 1P"),
            ("max-bytes", "1.5G", "a whole number of bytes above 0, optionally with K, M, G or T (powers of 1024), at most 1P"),
            ("max-bytes", "9223372036854775807K", "a whole number of bytes above 0, optionally with K, M, G or T (powers of 1024), at most 1P"),
            ("idle-timeout", "-1", "0 (off) or a number of seconds above 0, at most 604800 (7 days)"),
            ("idle-timeout", "nan", "0 (off) or a number of seconds above 0, at most 604800 (7 days)"),
            ("idle-timeout", "1e300", "0 (off) or a number of seconds above 0, at most 604800 (7 days)"),
        ]
        for (option, value, rule) in cases {
            let (status, stderr, _) = try await run(record + ["--\(option)", value])
            #expect(status == 2, "--\(option) \(value): exit \(status) \(stderr)")
            #expect(stderr == "agentd: error: --\(option) '\(value)' is not \(rule) (see 'agentd record --help')\n", "\(stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("rec")), "a refused record made its directory")
        // The limits are in the help, which would have listed an unknown flag's absence.
        let (status, help, stdout) = try await run(["record", "--help"])
        #expect(status == 0)
        let text = help + stdout.joined(separator: "\n")
        for option in ["--max-duration SEC", "--max-bytes N", "--idle-timeout SEC"] {
            #expect(text.contains(option), "\(option) missing from record --help")
        }
    }
}
