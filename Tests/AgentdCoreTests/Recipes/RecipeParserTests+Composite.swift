import Testing

@testable import AgentdCore
@testable import Recorder

/// A recorder recipe's `record.composite`, as `agentd record --composite-*`.
extension RecipeParserTests {
    @Test func recordCompositeSettings() throws {
        let recipe = try parse(#"{"name": "r", "role": "audience", "record": {"formats": ["composite", "mix"], "composite": {"size": "640x360", "fps": 30, "layout": "speaker"}}}"#)
        #expect(recipe.record?.formats == ["composite", "mix"])
        #expect(recipe.record?.composite == (try CompositeSettings(width: 640, height: 360, framesPerSecond: 30, layout: .speaker)))
        let plain = try parse(#"{"name": "r", "role": "audience", "record": {"formats": ["composite"]}}"#)
        #expect(plain.record?.composite == CompositeSettings())
    }

    @Test("bad composite settings name their path", arguments: [
        (#"{"size": "641x360"}"#, "$.record.composite.size"),
        (#"{"fps": 0}"#, "$.record.composite.fps"),
        (#"{"layout": "mosaic"}"#, "$.record.composite.layout"),
        (#"{"colour": 1}"#, "$.record.composite.colour"),
    ])
    func badCompositeSettings(composite: String, path: String) {
        let error = failure(#"{"name": "r", "role": "audience", "record": {"formats": ["composite"], "composite": \#(composite)}}"#)
        #expect(error?.path == path, "\(String(describing: error))")
    }

    @Test func compositeSettingsWithoutTheCompositeFormatAreRefused() {
        let error = failure(#"{"name": "r", "role": "audience", "record": {"formats": ["webm"], "composite": {"fps": 30}}}"#)
        #expect(error?.path == "$.record.composite", "\(String(describing: error))")
        #expect("\(String(describing: error))".contains("only formats with"))
    }
}
