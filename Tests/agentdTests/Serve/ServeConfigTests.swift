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
