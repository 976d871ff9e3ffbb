import Agent
import Synchronization
import Testing

@testable import agentd

/// Runs the CLI in-process and captures what it prints.
final class CapturedOutput: Sendable {
    let out = Mutex<[String]>([])
    let err = Mutex<[String]>([])
    /// The test's own transport loops (they start only when a command joins a room).
    let loops = LoopGroup(name: "test.cli.io")

    func tool(environment: [String: String] = [:]) -> CommandLineTool {
        CommandLineTool(
            environment: environment,
            standardOutput: { line in self.out.withLock { $0.append(line) } },
            standardError: { line in self.err.withLock { $0.append(line) } },
            loops: loops)
    }

    var stdout: String { out.withLock { $0.joined(separator: "\n") } }
    var stderr: String { err.withLock { $0.joined(separator: "\n") } }
}

@Suite struct CommandLineToolTests {
    @Test func noArgumentsPrintsHelpToStderrAndExitsUsage() async {
        let output = CapturedOutput()
        #expect(await output.tool().run([]) == .usage)
        #expect(output.stderr.contains("usage: agentd <command>"))
    }

    @Test func globalHelpListsEveryContractCommand() async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["--help"]) == .ok)
        for command in ["record", "play", "bot", "serve", "token"] {
            #expect(output.stdout.contains("\n  \(command) "), "help lacks \(command)")
        }
    }

    /// The option names of ARCHITECTURE.md's CLI contract, per command.
    static let contract: [(String, [String])] = [
        ("record", ["--server WS_URL", "--room ROOM", "[--token T]", "[--pin P]", "[--display NAME]", "[--out DIR]",
                    "[--duration SEC]", "[--formats LIST]", "[--create]", "[--json]", "[--ice-allow LIST]"]),
        ("play", ["--server WS_URL", "--room ROOM", "--display NAME", "[--audio FILE]", "[--video FILE]", "[--loop]",
                  "[--duration SEC]", "[--token T]", "[--pin P]", "[--create]", "[--ice-allow LIST]"]),
        ("bot", ["RECIPE.json", "[--server WS_URL]", "[--room ROOM]", "[--duration SEC]", "[--ice-allow LIST]"]),
        ("serve", ["[--config FILE]", "[--listen HOST:PORT]"]),
        ("token", ["--secret S", "[--plugins LIST]", "[--ttl SEC]"]),
    ]

    @Test(arguments: contract)
    func commandHelpFollowsTheContract(command: String, synopsis: [String]) async {
        let output = CapturedOutput()
        #expect(await output.tool().run([command, "--help"]) == .ok)
        let usage = output.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(usage.hasPrefix("usage: agentd \(command) "))
        for part in synopsis {
            #expect(usage.contains(part), "\(command) usage lacks \(part): \(usage)")
        }
    }

    @Test func unknownCommandAndOptionAreUsageErrorsOnOneLine() async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["recrod"]) == .usage)
        #expect(output.stderr == "agentd: error: unknown command 'recrod' (see 'agentd --help')")
        let second = CapturedOutput()
        #expect(await second.tool().run(["token", "--secret", "s", "--nope"]) == .usage)
        #expect(second.stderr == "agentd: error: unknown option '--nope' (see 'agentd token --help')")
    }

    @Test func botWithAMissingRecipeFileExitsUsage() async {
        let output = CapturedOutput()
        let code = await output.tool().run(["bot", "/nonexistent/recipe.json"])
        #expect(code == .usage)
        #expect(output.stderr.hasPrefix("agentd: error: cannot read recipe /nonexistent/recipe.json"), "\(output.stderr)")
    }

    @Test func recordRejectsUnknownFormat() async {
        let output = CapturedOutput()
        let code = await output.tool().run(["record", "--server", "ws://h/", "--room", "r", "--formats", "webm,mp4"])
        #expect(code == .usage)
        #expect(output.stderr.contains("mp4"))
    }

    @Test func tokenPrintsASignedToken() async {
        let output = CapturedOutput()
        let code = await output.tool().run(["token", "--secret", "s3cret", "--plugins", "janus.plugin.videoroom,janus.plugin.textroom", "--ttl", "60"])
        #expect(code == .ok)
        let parts = output.stdout.split(separator: ":")
        #expect(parts.count == 2)
        #expect(parts.first?.hasSuffix(",janus,janus.plugin.videoroom,janus.plugin.textroom") == true)
    }
}
