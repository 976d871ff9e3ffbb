import Foundation
import TestSupport
import Testing

@testable import agentd

/// `agentd bot` on recipes it cannot run.
@Suite struct BotCommandTests {
    @Test("agentd bot: a bad recipe exits 2 naming the path, before joining anything")
    func badRecipeExitsUsage() async throws {
        let scratch = try ScratchDirectory("recipe-bad")
        let path = scratch.path("bad.json")
        try Data(#"{"name": "t", "tracks": {"audio": {"source": "tone", "frequency": "high"}}}"#.utf8).write(to: URL(fileURLWithPath: path))
        let output = CapturedOutput()
        let code = await output.tool().run(["bot", path, "--server", "ws://10.77.0.2:8188/", "--room", "x"])
        #expect(code == .usage)
        #expect(output.stderr.hasPrefix("agentd: error: $.tracks.audio.frequency: expected a number"), "\(output.stderr)")
        let missing = CapturedOutput()
        #expect(await missing.tool().run(["bot", "nonexistent", "--recipes", scratch.directory.path]) == .usage)
        #expect(missing.stderr.contains("no recipe named 'nonexistent'"), "\(missing.stderr)")
        let noFile = CapturedOutput()
        try Data(#"{"name": "p", "tracks": {"audio": {"source": "file", "playlist": ["missing.wav"]}}}"#.utf8)
            .write(to: URL(fileURLWithPath: scratch.path("p.json")))
        #expect(await noFile.tool().run(["bot", scratch.path("p.json"), "--server", "ws://10.77.0.2:8188/", "--room", "x"]) == .usage)
        #expect(noFile.stderr.contains("missing.wav"), "\(noFile.stderr)")
    }

    @Test("agentd bot --video-codec: one of vp8, h264, room, and only for a pattern video; else exit 2 before joining")
    func videoCodecIsChecked() async throws {
        let scratch = try ScratchDirectory("recipe-codec")
        try Data(#"{"name": "t", "tracks": {"audio": {"source": "tone"}}}"#.utf8).write(to: URL(fileURLWithPath: scratch.path("tone.json")))
        try Data(#"{"name": "p", "tracks": {"video": {"source": "pattern"}}}"#.utf8).write(to: URL(fileURLWithPath: scratch.path("p.json")))
        let bad = CapturedOutput()
        #expect(await bad.tool().run(["bot", scratch.path("p.json"), "--server", "ws://10.77.0.2:8188/", "--room", "x", "--video-codec", "vp9"]) == .usage)
        #expect(bad.stderr.contains("--video-codec must be one of vp8, h264, room, not 'vp9'"), "\(bad.stderr)")
        let noPattern = CapturedOutput()
        #expect(await noPattern.tool().run(["bot", scratch.path("tone.json"), "--server", "ws://10.77.0.2:8188/", "--room", "x", "--video-codec", "h264"]) == .usage)
        #expect(noPattern.stderr.contains("recipe 't' has none"), "\(noPattern.stderr)")
    }
}
