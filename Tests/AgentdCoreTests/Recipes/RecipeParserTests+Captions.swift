import Foundation
import Testing

@testable import AgentdCore

/// A host recipe's `captions`: the engine, its program, partials, and where captions do not fit.
extension RecipeParserTests {
    @Test func captionsSettings() throws {
        let plain = try parse(#"{"name": "c", "tracks": {"audio": {"source": "silence"}}, "captions": {}}"#)
        #expect(plain.captions == Recipe.Captions(engine: .pocketSphinx, partials: true))
        #expect(plain.listens, "a captions bot subscribes to the others")
        let command = try parse(#"{"name": "c", "tracks": {"audio": {"source": "silence"}}, "captions": {"command": ["bin/stt", "--fast"], "partials": false}}"#)
        guard case .command(let executable, let arguments) = command.captions?.engine else {
            Issue.record("\(String(describing: command.captions))")
            return
        }
        #expect(executable == "/srv/recipes/bin/stt", "resolved against the recipe's directory: \(executable)")
        #expect(arguments == ["--fast"] && command.captions?.partials == false)
        let shipped = try RecipeParser.parse(Data(contentsOf: Self.recipes.appendingPathComponent("captions.json")), baseDirectory: Self.recipes)
        #expect(shipped.captions?.engine == .pocketSphinx && shipped.audio == .silence)
    }

    @Test("captions that cannot work name their path", arguments: [
        (#"{"name": "c", "role": "audience", "record": {"formats": ["wav"]}, "captions": {}}"#, "$.captions"),
        (#"{"name": "c", "tracks": {"audio": {"source": "silence"}}, "captions": {"engine": "command"}}"#, "$.captions.command"),
        (#"{"name": "c", "tracks": {"audio": {"source": "silence"}}, "captions": {"engine": "pocketsphinx", "command": ["x"]}}"#, "$.captions.command"),
        (#"{"name": "c", "tracks": {"audio": {"source": "silence"}}, "captions": {"engine": "whisper"}}"#, "$.captions.engine"),
        (#"{"name": "c", "tracks": {"audio": {"source": "silence"}}, "captions": {"language": "en"}}"#, "$.captions.language"),
        (#"{"name": "c", "participants": 3, "tracks": {"audio": {"source": "silence"}}, "captions": {}}"#, "$.captions"),
    ])
    func badCaptions(text: String, path: String) {
        let error = failure(text)
        #expect(error?.path == path, "\(String(describing: error))")
    }
}
