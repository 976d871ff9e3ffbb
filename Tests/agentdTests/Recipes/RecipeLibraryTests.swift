import Agent
import AgentdCore
import Foundation
import TestSupport
import Testing

@testable import agentd

/// Where recipes come from: every shipped recipe parses to what it says, and recipe files are
/// read within bounds.
@Suite struct RecipeLibraryTests {
    static let recipes = Repository.root.appendingPathComponent("recipes")
    static let shipped = ["tone", "player", "echo", "announcer", "greeter", "recorder", "load"]

    @Test("every shipped recipe parses, and the library lists them all")
    func shippedRecipesParse() throws {
        let library = RecipeLibrary(directory: Self.recipes)
        #expect(Set(library.names()).isSuperset(of: Self.shipped), "\(library.names())")
        for name in library.names() {
            let recipe = try library.recipe(named: name)
            #expect(recipe.name == name)
        }
        let tone = try library.recipe(named: "tone")
        #expect(tone.audio == .tone(frequency: 440, amplitude: 0.5) && tone.video == nil && !tone.listens)
        let player = try library.recipe(named: "player")
        guard case .file(let files) = player.video else { Issue.record("player has no file video"); return }
        #expect(files.loop && player.resolve(files.playlist[0]) == Repository.root.appendingPathComponent("samples/pattern.webm").path)
        #expect(try library.recipe(named: "echo").audio == .echo(delayMilliseconds: 500))
        #expect(try library.recipe(named: "echo").listens)
        let greeter = try library.recipe(named: "greeter")
        #expect(greeter.listens && greeter.behaviours.first?.trigger == .userJoined)
        #expect(greeter.behaviours.first?.send?.render(name: "carol") == #"{"text":"welcome carol","to":"carol","type":"greeting"}"#)
        let announcer = try library.recipe(named: "announcer")
        #expect(announcer.behaviours.map(\.trigger) == [.start, .every(seconds: 10, times: nil)])
        let recorder = try library.recipe(named: "recorder")
        #expect(recorder.role == .audience && recorder.record == .init(formats: ["webm", "wav", "data"], out: nil))
        #expect(try library.recipe(named: "load").participants == 3)
    }

    @Test("a recipe file that is a FIFO or larger than 1 MiB is unreadable, not read forever")
    func recipeFilesAreReadWithinBounds() throws {
        let scratch = try ScratchDirectory("recipefile")
        #expect(mkfifo(scratch.path("fifo.json"), 0o644) == 0)
        #expect(throws: RecipeError.unreadable(path: scratch.path("fifo.json"), reason: "it is a FIFO (named pipe), not a regular file")) {
            try RecipeLibrary.load(path: scratch.path("fifo.json"))
        }
        let big = scratch.path("big.json")
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 64 << 20) == 0)
        #expect(throws: RecipeError.unreadable(path: big, reason: "it is larger than 1024 KiB")) { try RecipeLibrary.load(path: big) }
    }
}
