import Agent
import Foundation
import TestSupport
import Testing

@testable import AgentdCore

/// The recipe format: schema.json describes the keys the parser takes, and bad recipes fail with
/// the JSON path of the problem.
@Suite struct RecipeParserTests {
    static let recipes = Repository.root.appendingPathComponent("recipes")
    static let base = URL(fileURLWithPath: "/srv/recipes")

    func parse(_ text: String) throws(RecipeError) -> Recipe {
        try RecipeParser.parse(Data(text.utf8), baseDirectory: Self.base)
    }

    /// The error a recipe text gives, as (path, message).
    func failure(_ text: String) -> (path: String, message: String)? {
        do {
            _ = try parse(text)
            return nil
        } catch .invalid(let path, let message) {
            return (path, message)
        } catch {
            return ("(not invalid)", error.description)
        }
    }

    @Test("schema.json's top-level properties are exactly the keys the parser accepts; its source lists match")
    func schemaMatchesParser() throws {
        let data = try Data(contentsOf: Self.recipes.appendingPathComponent("schema.json"))
        let schema = try JSONDecoder().decode(JSONValue.self, from: data)
        let properties = Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? [])
        #expect(properties == RecipeParser.topLevelKeys)
        #expect(schema["additionalProperties"] == .bool(false))
        func sources(_ definition: String) -> Set<String> {
            let variants = schema["$defs"]?[definition]?["oneOf"]?.arrayValue ?? []
            return Set(variants.compactMap { variant -> String? in
                let resolved = variant["$ref"]?.stringValue.map { _ in schema["$defs"]?["files"] ?? .null } ?? variant
                return resolved["properties"]?["source"]?["const"]?.stringValue
            })
        }
        #expect(sources("audio") == Set(RecipeParser.audioSources))
        #expect(sources("video") == Set(RecipeParser.videoSources))
        #expect(Set(schema["$defs"]?["behaviour"]?["properties"]?["on"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                == Set(RecipeParser.triggers))
        let pattern = schema["$defs"]?["video"]?["oneOf"]?.arrayValue?.first { $0["properties"]?["source"]?["const"] == .string("pattern") }
        #expect(pattern?["properties"]?["codec"]?["enum"]?.arrayValue?.compactMap(\.stringValue) == RecipeParser.patternCodecs)
    }

    @Test("defaults: role host, display = name, tone 440 Hz at 0.5, one participant")
    func defaults() throws {
        let recipe = try parse(#"{"name": "t", "tracks": {"audio": {"source": "tone"}, "video": {"source": "pattern"}}}"#)
        #expect(recipe.role == .host && recipe.display == "t" && recipe.participants == 1 && !recipe.create)
        #expect(recipe.audio == .tone(frequency: 440, amplitude: 0.5))
        #expect(recipe.video == .pattern(width: 320, height: 240, framesPerSecond: 15, bitrate: 500_000, codec: .vp8))
        #expect(recipe.resolve("a.wav") == "/srv/recipes/a.wav" && recipe.resolve("/x.wav") == "/x.wav")
    }

    @Test("a pattern's codec: vp8 (the default), h264, or room for the room's choice", arguments: [
        ("vp8", MediaCodec.vp8), ("h264", .h264), ("room", nil),
    ])
    func patternCodec(name: String, codec: MediaCodec?) throws {
        let recipe = try parse(#"{"name": "t", "tracks": {"video": {"source": "pattern", "width": 640, "height": 360, "codec": "\#(name)"}}}"#)
        #expect(recipe.video == .pattern(width: 640, height: 360, framesPerSecond: 15, bitrate: 500_000, codec: codec))
    }

    @Test("a recorder recipe's limits, segments and notice, as the record flags")
    func recordLimits() throws {
        let recipe = try parse(#"{"name": "r", "role": "audience", "record": {"max_duration": 30, "max_bytes": "2M", "idle_timeout": 0, "segment": 5, "notice": "data"}}"#)
        let record = try #require(recipe.record)
        #expect(record.limits == RecordingLimits(maxDuration: 30, maxBytes: 2 << 20))
        #expect(record.segments?.lengthMs == 5000)
        #expect(record.notice == .data)
        let plain = try #require(try parse(#"{"name": "r", "role": "audience", "record": {"max_bytes": 1000, "idle_timeout": 3}}"#).record)
        #expect(plain.limits == RecordingLimits(maxBytes: 1000, idleTimeout: 3))
        #expect(plain.segments == nil && plain.notice == nil)
        for (field, value) in [("max_duration", "0"), ("max_bytes", "\"1.5G\""), ("max_bytes", "0"), ("idle_timeout", "-1"),
                               ("segment", "0.5"), ("notice", "\"loud\"")] {
            let error = failure(#"{"name": "r", "role": "audience", "record": {"\#(field)": \#(value)}}"#)
            #expect(error?.path == "$.record.\(field)", "\(field): \(String(describing: error))")
        }
    }

    @Test("unknown keys are errors naming their path", arguments: [
        (#"{"name": "t", "colour": 1, "tracks": {"audio": {"source": "tone"}}}"#, "$.colour"),
        (#"{"name": "t", "tracks": {"audio": {"source": "tone", "freq": 440}}}"#, "$.tracks.audio.freq"),
        (#"{"name": "t", "tracks": {"screen": {}}}"#, "$.tracks.screen"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"on": "start", "say": "x", "loud": true}]}"#, "$.behaviours[0].loud"),
        (#"{"name": "r", "role": "audience", "record": {"format": ["wav"]}}"#, "$.record.format"),
    ])
    func unknownKeys(text: String, path: String) {
        let error = failure(text)
        #expect(error?.path == path, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("unknown key") == true)
    }

    @Test("bad values are errors naming their path", arguments: [
        (#"{"tracks": {"audio": {"source": "tone"}}}"#, "$.name"),
        (#"{"name": "has space", "tracks": {"audio": {"source": "tone"}}}"#, "$.name"),
        (#"{"name": "t", "role": "guest", "tracks": {"audio": {"source": "tone"}}}"#, "$.role"),
        (#"{"name": "t", "create": 1, "tracks": {"audio": {"source": "tone"}}}"#, "$.create"),
        (#"{"name": "t", "duration": 0, "tracks": {"audio": {"source": "tone"}}}"#, "$.duration"),
        (#"{"name": "t", "duration": "5", "tracks": {"audio": {"source": "tone"}}}"#, "$.duration"),
        (#"{"name": "t", "server": "http://x/", "tracks": {"audio": {"source": "tone"}}}"#, "$.server"),
        (#"{"name": "t", "room": "a/b", "tracks": {"audio": {"source": "tone"}}}"#, "$.room"),
        (#"{"name": "t", "participants": 2.5, "tracks": {"audio": {"source": "tone"}}}"#, "$.participants"),
        (#"{"name": "t", "participants": 51, "tracks": {"audio": {"source": "tone"}}}"#, "$.participants"),
        (#"{"name": "t", "tracks": {"audio": {"source": "tone", "frequency": 5}}}"#, "$.tracks.audio.frequency"),
        (#"{"name": "t", "tracks": {"audio": {"source": "tone", "amplitude": 2}}}"#, "$.tracks.audio.amplitude"),
        (#"{"name": "t", "tracks": {"audio": {"source": "noise"}}}"#, "$.tracks.audio.source"),
        (#"{"name": "t", "tracks": {"audio": {}}}"#, "$.tracks.audio.source"),
        (#"{"name": "t", "tracks": {"audio": "tone"}}"#, "$.tracks.audio"),
        (#"{"name": "t", "tracks": {"audio": {"source": "file"}}}"#, "$.tracks.audio.playlist"),
        (#"{"name": "t", "tracks": {"audio": {"source": "file", "playlist": []}}}"#, "$.tracks.audio.playlist"),
        (#"{"name": "t", "tracks": {"audio": {"source": "file", "playlist": ["a.wav", 3]}}}"#, "$.tracks.audio.playlist[1]"),
        (#"{"name": "t", "tracks": {"audio": {"source": "echo", "delay_ms": -1}}}"#, "$.tracks.audio.delay_ms"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech", "voice": "en; rm"}}}"#, "$.tracks.audio.voice"),
        (#"{"name": "t", "tracks": {"video": {"source": "pattern", "width": 321}}}"#, "$.tracks.video"),
        (#"{"name": "t", "tracks": {"video": {"source": "tone"}}}"#, "$.tracks.video.source"),
        (#"{"name": "t", "tracks": {"video": {"source": "pattern", "codec": "vp9"}}}"#, "$.tracks.video.codec"),
        (#"{"name": "t", "tracks": {"video": {"source": "pattern", "codec": "H264"}}}"#, "$.tracks.video.codec"),
        (#"{"name": "t", "tracks": {"video": {"source": "pattern", "codec": 1}}}"#, "$.tracks.video.codec"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": {}}"#, "$.behaviours"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"say": "x"}]}"#, "$.behaviours[0]"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"on": "start"}]}"#, "$.behaviours[0]"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"on": "start", "every": 2, "say": "x"}]}"#, "$.behaviours[0]"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"on": "joined", "say": "x"}]}"#, "$.behaviours[0].on"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"on": "start", "times": 2, "say": "x"}]}"#, "$.behaviours[0].times"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"every": 0, "say": "x"}]}"#, "$.behaviours[0].every"),
        (#"{"name": "t", "tracks": {"audio": {"source": "speech"}}, "behaviours": [{"on": "start", "send": 5}]}"#, "$.behaviours[0].send"),
        (#"{"name": "t", "tracks": {"audio": {"source": "tone"}}, "behaviours": [{"on": "start", "say": "x"}]}"#, "$.behaviours[0].say"),
        (#"{"name": "t"}"#, "$.tracks"),
        (#"{"name": "t", "tracks": {"audio": {"source": "tone"}}, "record": {}}"#, "$.record"),
        (#"{"name": "r", "role": "audience"}"#, "$.record"),
        (#"{"name": "r", "role": "audience", "record": {}, "tracks": {"audio": {"source": "tone"}}}"#, "$.tracks"),
        (#"{"name": "r", "role": "audience", "record": {"formats": ["wav", "mp3"]}}"#, "$.record.formats[1]"),
        (#"{"name": "t", "participants": 3, "tracks": {"audio": {"source": "echo"}}}"#, "$.tracks.audio.source"),
        (#"{"name": "t", "tracks": {"audio": {"source": "file", "playlist": ["a.wav"], "loop": true}, "video": {"source": "file", "playlist": ["b.ivf"]}}}"#, "$.tracks.video.loop"),
        (#"{"name": "t", "tracks": {"audio": {"source": "file", "playlist": ["a.wav"]}, "video": {"source": "file", "playlist": ["b.ivf", "c.ivf"]}}}"#, "$.tracks.video.playlist"),
        (#"[1, 2]"#, "$"),
    ])
    func badValues(text: String, path: String) {
        let error = failure(text)
        #expect(error?.path == path, "\(String(describing: error))")
    }

    @Test("messages say what was expected and what came")
    func messages() {
        let error = failure(#"{"name": "t", "tracks": {"audio": {"source": "tone", "frequency": 5}}}"#)
        #expect(error?.message == "expected a number from 20 to 20000, got 5")
        #expect(RecipeError.invalid(path: "$.a", message: "b").description == "$.a: b")
        #expect(throws: RecipeError.self) { try parse("{not json") }
    }

    /// A recipe is read by the bounded parser, as every other JSON input: nesting past its depth
    /// limit is refused where it goes too deep, and bytes that are not UTF-8 are not JSON.
    @Test("the recipe's JSON is read within the parser's depth limit, and must be UTF-8")
    func jsonIsReadWithinBounds() {
        let prefix = #"{"name": "t", "tracks": {"audio": {"source": "tone"}}, "description": "#
        let deep = prefix + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: RecipeError.malformedJSON("arrays and objects nest deeper than 64 at byte \(prefix.utf8.count + 63)")) {
            try parse(deep)
        }
        #expect(throws: RecipeError.malformedJSON("the JSON text is not UTF-8")) {
            try RecipeParser.parse(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), baseDirectory: Self.base)
        }
    }

    @Test("{name} is filled in text, in every string of a JSON message, and stays valid JSON")
    func templates() throws {
        #expect(Recipe.MessageTemplate.text("hi {name}!").render(name: "bob") == "hi bob!")
        let json = Recipe.MessageTemplate.json(["to": "{name}", "list": ["{name}", 3], "n": 1])
        let rendered = json.render(name: #"a "quoted" name"#)
        let back = try JSONValue(parsing: rendered)
        #expect(back["to"] == .string(#"a "quoted" name"#) && back["list"] == [.string(#"a "quoted" name"#), 3])
    }

    /// Every list and string has a bound, with an error naming its path: 1.25 M behaviours used to
    /// be read whole (570 MB).
    @Test("lists, strings, display names and messages are bounded, naming the JSON path")
    func sizesAreBounded() throws {
        let tone = #""tracks": {"audio": {"source": "tone"}}"#
        let behaviours = Array(repeating: #"{"on": "start", "send": "x"}"#, count: 101).joined(separator: ",")
        let playlist = Array(repeating: #""a.wav""#, count: 1001).joined(separator: ",")
        let long = String(repeating: "x", count: 4097)
        let message = String(repeating: "m", count: 65_537)
        let clustered = "a" + String(repeating: "\u{0301}", count: 300)  // one character, 601 bytes
        let cases: [(text: String, path: String, says: String)] = [
            (#"{"name": "t", \#(tone), "behaviours": [\#(behaviours)]}"#, "$.behaviours", "at most 100 entries, got 101"),
            (#"{"name": "t", "tracks": {"audio": {"source": "file", "playlist": [\#(playlist)]}}}"#, "$.tracks.audio.playlist", "at most 1000 entries"),
            (#"{"name": "t", "description": "\#(long)", \#(tone)}"#, "$.description", "at most 4096 bytes, got 4097"),
            (#"{"name": "t", "token": "\#(long)", \#(tone)}"#, "$.token", "at most 4096 bytes"),
            (#"{"name": "t", "tracks": {"audio": {"source": "file", "playlist": ["\#(long)"]}}}"#, "$.tracks.audio.playlist[0]", "at most 4096 bytes"),
            (#"{"name": "t", \#(tone), "behaviours": [{"on": "start", "send": "\#(message)"}]}"#, "$.behaviours[0].send", "at most 65536 bytes"),
            (#"{"name": "t", \#(tone), "behaviours": [{"on": "start", "send": {"k": "\#(message)"}}]}"#, "$.behaviours[0].send", "at most 65536 bytes"),
            (#"{"name": "t", "display": "\#(clustered)", \#(tone)}"#, "$.display", "at most 256 bytes"),
            (#"{"name": "t", "display": "\#(String(repeating: "d", count: 65))", \#(tone)}"#, "$.display", "1-64 characters"),
        ]
        for (text, path, says) in cases {
            let failure = failure(text)
            #expect(failure?.path == path, "\(path): \(failure.map { "\($0.path): \($0.message)" } ?? "accepted")")
            #expect(failure?.message.contains(says) == true, "\(path): \(failure?.message ?? "accepted")")
        }
        #expect(throws: RecipeError.self) { try RecipeParser.parse(Data(count: RecipeParser.maximumRecipeBytes + 1), baseDirectory: Self.base) }
    }
}
