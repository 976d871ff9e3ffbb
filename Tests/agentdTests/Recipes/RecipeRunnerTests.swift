import Agent
import AgentdCore
import Foundation
import TestSupport
import Testing

@testable import agentd

/// A parsed recipe's way to a run: overrides, the recorder's seam to the RecordingLauncher, and
/// its output directory under a daemon's root.
@Suite struct RecipeRunnerTests {
    static let recipes = Repository.root.appendingPathComponent("recipes")

    func parse(_ text: String) throws(RecipeError) -> Recipe {
        try RecipeParser.parse(Data(text.utf8), baseDirectory: URL(fileURLWithPath: "/srv/recipes"))
    }

    @Test("overrides replace the recipe's room settings; a recipe without server or room is a usage error")
    func overrides() async throws {
        let recipe = try parse(#"{"name": "t", "room": "a", "display": "x", "tracks": {"audio": {"source": "tone"}}}"#)
        let applied = RecipeOverrides(server: "ws://h/", room: "b", create: true, display: "y", duration: 3).applied(to: recipe)
        #expect(applied.server == "ws://h/" && applied.room == "b" && applied.create && applied.display == "y" && applied.duration == 3)
        #expect(RecipeOverrides().applied(to: recipe) == recipe)
        let runner = RecipeRunner(recipe: recipe, ice: RoomJoinPatch(), environment: RecipeEnvironment(loops: LoopGroup(count: 1, name: "test.recipe")))
        await #expect(throws: CommandFailure(.usage, "recipe t names no server", hint: "give --server or \"server\" in the recipe")) {
            _ = try await runner.run(until: {})
        }
    }

    @Test("--video-codec replaces a pattern's codec (room: the room's choice) and builds the track with it")
    func patternCodecOverride() throws {
        let recipe = try parse(#"{"name": "t", "tracks": {"video": {"source": "pattern", "codec": "vp8"}}}"#)
        let h264 = RecipeOverrides(patternCodec: "h264").applied(to: recipe)
        #expect(h264.video == .pattern(width: 320, height: 240, framesPerSecond: 15, bitrate: 500_000, codec: .h264))
        #expect(try RecipeMedia(recipe: h264).videoTrack?.offeredCodecs == [.h264])
        let room = RecipeOverrides(patternCodec: "room").applied(to: recipe)
        #expect(try RecipeMedia(recipe: room).videoTrack?.offeredCodecs == [.vp8, .h264])
        #expect(try RecipeMedia(recipe: recipe).videoTrack?.configuration.codec == .vp8)
    }

    @Test("the recorder recipe hands its settings to the RecordingLauncher and reports what it says")
    func recorderSeam() async throws {
        let recipe = try RecipeLibrary(directory: Self.recipes).recipe(named: "recorder")
        let overrides = RecipeOverrides(server: "ws://10.77.0.2:8188/", room: "r1", duration: 0.05)
        let seen = Shared<(RecordingRequest, [String])?>(nil)
        let ice = RoomJoinPatch.ice(ICEConfiguration(addresses: ["10.77.0.1"]), credentials: nil)
        let runner = RecipeRunner(
            recipe: recipe, overrides: overrides, ice: ice,
            environment: RecipeEnvironment(loops: LoopGroup(count: 1, name: "test.recipe"))
        ) { request, ice, stop in
            seen.withLock { $0 = (request, ice.ice?.addresses ?? []) }
            return RecordingLaunchResult(summary: "recorded 0 participant(s)", stoppedBy: "duration")
        }
        let outcome = try await runner.run(until: { try? await Task.sleep(for: .seconds(30)) })
        #expect(outcome.recording == "recorded 0 participant(s)" && outcome.stoppedBy == "duration", "\(outcome)")
        let (request, addresses) = try #require(seen.current)
        #expect(request.server == "ws://10.77.0.2:8188/" && request.room == "r1" && request.display == "recorder" && !request.create)
        #expect(request.formats.names.sorted() == ["data", "wav", "webm"] && request.duration == 0.05 && addresses == ["10.77.0.1"])
        #expect(request.directory.path.contains("recordings/r1-"), "\(request.directory.path)")
    }

    @Test("under a daemon's output root a recorder's out must stay inside it")
    func recorderOutUnderRoot() throws {
        var recipe = try RecipeLibrary(directory: Self.recipes).recipe(named: "recorder")
        recipe.record?.out = "sub/dir"
        let inside = try RecipeRecording.request(for: recipe, server: "ws://h/", room: "r", outputRoot: "/var/lib/agentd")
        #expect(inside.directory.path == "/var/lib/agentd/sub/dir")
        recipe.record?.out = "../escape"
        #expect(throws: CommandFailure.self) { try RecipeRecording.request(for: recipe, server: "ws://h/", room: "r", outputRoot: "/var/lib/agentd") }
    }
}
