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
}
