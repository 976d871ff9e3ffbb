import Testing

@testable import Recorder
@testable import agentd

/// `agentd record --composite-size/--composite-fps/--composite-layout`: in --help, carried into
/// the recording request, and a usage error (exit 2) naming the flag when they do not fit.
@Suite struct RecordCompositeFlagsTests {
    @Test func helpListsTheFlags() async {
        let output = CapturedOutput()
        #expect(await output.tool().run(["record", "--help"]) == .ok)
        for flag in ["--composite-size WxH", "--composite-fps N", "--composite-layout grid|speaker", "composite"] {
            #expect(output.stdout.contains(flag), "help lacks \(flag)")
        }
    }

    @Test func flagsReachTheRecordingRequest() throws {
        let arguments = ParsedArguments(values: [
            "server": "ws://127.0.0.1:8188/", "room": "r", "out": "/tmp/agentd-composite-flags", "formats": "composite",
            "composite-size": "854x480", "composite-fps": "24", "composite-layout": "speaker",
        ])
        let plan = try RecordPlan(arguments)
        #expect(plan.recording.formats.contains(.composite))
        #expect(plan.recording.composite == (try CompositeSettings(width: 854, height: 480, framesPerSecond: 24, layout: .speaker)))
        let defaults = try RecordPlan(ParsedArguments(values: ["server": "ws://127.0.0.1:8188/", "room": "r", "out": "/tmp/x"]))
        #expect(defaults.recording.composite == CompositeSettings())
    }

    @Test(arguments: [("--composite-size", "1279x720"), ("--composite-size", "4000x2000"), ("--composite-size", "big"),
                      ("--composite-fps", "0"), ("--composite-fps", "61"), ("--composite-fps", "fast"),
                      ("--composite-layout", "mosaic")])
    func badValuesAreUsageErrorsNamingTheFlag(flag: String, value: String) async {
        let output = CapturedOutput()
        let code = await output.tool().run(["record", "--server", "ws://h/", "--room", "r", "--formats", "composite", flag, value])
        #expect(code == .usage)
        #expect(output.stderr.hasPrefix("agentd: error: \(flag) '\(value)' is not "), "\(output.stderr)")
    }

    @Test(arguments: ["--composite-size", "--composite-fps", "--composite-layout"])
    func flagsWithoutTheCompositeFormatAreUsageErrors(flag: String) async {
        let value = ["--composite-size": "640x360", "--composite-fps": "30", "--composite-layout": "speaker"][flag] ?? ""
        for formats in [["--formats", "webm,wav"], []] {
            let output = CapturedOutput()
            let code = await output.tool().run(["record", "--server", "ws://h/", "--room", "r"] + formats + [flag, value])
            #expect(code == .usage)
            #expect(output.stderr.hasPrefix("agentd: error: \(flag) cannot be combined with --formats"), "\(output.stderr)")
        }
    }
}
