import Agent
import Foundation
import TestSupport
import Testing

@testable import agentd

/// The config file, the token rule and the log format, without a network.
@Suite("ServeConfig")
struct ServeConfigTests {
    @Test("the sample config parses; unknown keys and bad values are clear errors")
    func parsing() throws {
        let sample = try ServeConfig(path: Repository.root.appendingPathComponent("contrib/config.example.json").path)
        #expect(sample.outputRoot == "/var/lib/agentd/recordings")
        #expect(sample.maxJobs == 4)
        #expect(sample.iceAllow == "eth0")
        #expect(sample.logFormat == .json)
        #expect(sample.apiToken == nil, "the sample keeps the token in the environment file")

        #expect(throws: ServeConfigError.unknownKeys(["max_job"])) { try ServeConfig(parsing: Data(#"{"max_job": 3}"#.utf8)) }
        #expect(throws: ServeConfigError.invalid(key: "max_jobs", expected: "an integer from 1 to 1000")) {
            try ServeConfig(parsing: Data(#"{"max_jobs": 0}"#.utf8))
        }
        #expect(throws: ServeConfigError.invalid(key: "log_format", expected: "\"text\" or \"json\"")) {
            try ServeConfig(parsing: Data(#"{"log_format": "xml"}"#.utf8))
        }
        #expect(throws: ServeConfigError.invalid(key: "server", expected: "a ws:// or wss:// URL")) {
            try ServeConfig(parsing: Data(#"{"server": "http://janus/"}"#.utf8))
        }
        #expect(throws: ServeConfigError.notAnObject) { try ServeConfig(parsing: Data("[]".utf8)) }
        #expect(ServeConfigError.unknownKeys(["max_job"]).description.contains("known: api_token"))
    }

    @Test("the ICE keys: servers as a list or one string, the TURN credentials, the policy; a bad server stops the daemon (exit 2)")
    func iceKeys() async throws {
        let config = try ServeConfig(parsing: Data(#"""
            {"ice_servers": ["turn:10.77.2.2:3478?transport=udp", "turn:10.77.2.2?transport=tcp"], "ice_username": "agentd",
             "ice_credential": "s3cret-turn", "ice_policy": "relay", "ice_allow": "lo"}
            """#.utf8))
        #expect(config.iceServers == "turn:10.77.2.2:3478?transport=udp,turn:10.77.2.2?transport=tcp")
        #expect(config.iceUsername == "agentd" && config.iceCredential == "s3cret-turn" && config.icePolicy == "relay")
        #expect(try ServeConfig(parsing: Data(#"{"ice_servers": "stun:10.77.2.2"}"#.utf8)).iceServers == "stun:10.77.2.2")
        #expect(throws: ServeConfigError.invalid(key: "ice_servers", expected: "a list of turn: or stun: URIs")) {
            try ServeConfig(parsing: Data(#"{"ice_servers": [3478]}"#.utf8))
        }

        let scratch = try ScratchDirectory("serve-ice")
        let path = scratch.path("config.json")
        try Data(#"{"api_token": "t0ken-abcdef", "ice_servers": ["turn:turn.example.com"], "ice_username": "u", "ice_credential": "s3cret-turn"}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let output = CapturedOutput()
        #expect(await output.tool().run(["serve", "--config", path, "--listen", "127.0.0.1:0", "--ice-allow", "lo"]) == .usage)
        #expect(output.stderr.contains("--ice-server: 'turn.example.com' is a name"), "\(output.stderr)")
        #expect(!output.stderr.contains("s3cret-turn"))
    }

    @Test("agentd serve refuses to start without an API token, or with a bad config (exit 2)")
    func refusesToStart() async throws {
        let scratch = try ScratchDirectory("serve-config")
        let output = CapturedOutput()
        #expect(await output.tool().run(["serve", "--listen", "127.0.0.1:0"]) == .usage)
        #expect(output.stderr.contains("no API token"), "\(output.stderr)")

        let bad = scratch.path("bad.json")
        try Data(#"{"api_token": "x", "colour": "red"}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let badOutput = CapturedOutput()
        #expect(await badOutput.tool().run(["serve", "--config", bad]) == .usage)
        #expect(badOutput.stderr.contains("unknown config key(s) colour"), "\(badOutput.stderr)")

        let listen = CapturedOutput()
        #expect(await listen.tool(environment: ["AGENTD_API_TOKEN": "t0ken-abcdef"]).run(["serve", "--listen", "nowhere"]) == .usage)
    }

    @Test("JSON log lines parse and mask every secret they were told about")
    func jsonLog() throws {
        let lines = LogLines()
        let log = ServeLog(format: .json) { lines.append($0) }
        log.redact("s3cret-pin")
        log.info("joined with s3cret-pin", ["room": "r1", "note": "pin=s3cret-pin \"quoted\""])
        let line = try JSONValue(parsing: lines.text)
        #expect(line["level"] == "info")
        #expect(line["msg"] == "joined with [redacted]")
        #expect(line["note"] == "pin=[redacted] \"quoted\"")
        #expect(line["ts"]?.stringValue?.hasSuffix("Z") == true)
        #expect(!lines.text.contains("s3cret"))
    }
}
