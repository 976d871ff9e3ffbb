import Agent
import Testing

@testable import agentd

/// `agentd play`'s target: a Janus room or a WHIP endpoint, never a mix (exit 2 with one line).
@Suite struct PlayTargetTests {
    static let whip = "http://127.0.0.1:7080/whip/endpoint/one"
    static let files = ["--display", "d", "--audio", "/nonexistent.wav"]

    @Test("--whip with --server, --room, --pin or --create is a usage error naming both options", arguments: [
        ["--server", "ws://127.0.0.1:8188/"], ["--room", "r1"], ["--pin", "1234"], ["--create"],
    ])
    func whipExcludesJanusOptions(janus: [String]) async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["play", "--whip", Self.whip] + janus + Self.files) == .usage)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("agentd: error: --whip cannot be combined with \(janus[0]) (a WHIP endpoint names its server and room itself)"),
                "\(output.stderr)")
    }

    @Test("--whip must be an http(s) URL; without --whip, --server and then --room are required")
    func requiredAndValid() async {
        for (arguments, message) in [
            (["--whip", "ws://127.0.0.1:8188/"], "--whip 'ws://127.0.0.1:8188/' is not an http:// or https:// URL"),
            ([], "--server is required"),
            (["--server", "ws://127.0.0.1:8188/"], "--room is required"),
        ] {
            let output = CapturedOutput()
            #expect(await output.tool().run(["play"] + arguments + Self.files) == .usage, "\(arguments)")
            #expect(output.stderr.hasPrefix("agentd: error: \(message)"), "\(arguments): \(output.stderr)")
        }
    }

    @Test("the target is the endpoint given")
    func endpoints() throws {
        let parser = ArgumentParser(spec: PlayCommand.spec)
        let whip = try PlayTarget(parser.parse(["--whip", Self.whip, "--display", "d"]))
        #expect(whip.endpoint == .whip(url: Self.whip) && whip.platform == .whip)
        let janus = try PlayTarget(parser.parse(["--server", "ws://127.0.0.1:8188/", "--room", "r1", "--display", "d"]))
        #expect(janus.endpoint == .janus(server: "ws://127.0.0.1:8188/", room: "r1") && janus.platform == .janus)
    }

    @Test("play --help shows --whip and that --server and --room are optional with it")
    func help() async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["play", "--help"]) == .ok)
        #expect(output.stdout.contains("[--whip URL]"))
        #expect(output.stdout.contains("[--server WS_URL]") && output.stdout.contains("[--room ROOM]"))
        #expect(output.stdout.contains("Required unless --whip is given."))
    }
}
