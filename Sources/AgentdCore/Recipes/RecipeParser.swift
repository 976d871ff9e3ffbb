import AgentCore
import Foundation
import Recorder

/// Reads a recipe's JSON strictly: unknown keys, wrong types and out-of-range values are
/// ``RecipeError/invalid(path:message:)`` naming the JSON path, and rules that span fields (an
/// audience records, `say` needs a speech track) are checked too. recipes/schema.json describes
/// the same format; a test keeps their top-level keys equal.
package enum RecipeParser {
    package static let topLevelKeys: Set<String> = [
        "name", "description", "role", "display", "server", "room", "token", "pin", "create", "duration",
        "participants", "tracks", "behaviours", "record", "captions", "agent",
    ]
    package static let audioSources = ["tone", "file", "speech", "echo", "silence"]
    package static let videoSources = ["file", "pattern"]
    /// A pattern's `codec`: what a bot's video track can send, or `room` for the room's choice.
    package static let patternCodecs = ["vp8", "h264", "room"]
    package static let triggers = ["start", "user_joined", "user_left"]
    /// Load tests beyond this belong on more than one machine.
    package static let participantRange = 1...50
    /// A recipe file (or API body) is at most this big; the lists inside have bounds of their own.
    package static let maximumRecipeBytes = 1 << 20
    package static let maximumBehaviours = 100
    package static let maximumPlaylist = 1000
    /// A `send` message: what one data-channel message reasonably carries.
    package static let maximumMessageBytes = 65_536
    /// The echo's delay: its delay line holds that much audio (plus slack) per bot.
    package static let echoDelayMilliseconds = 0...10_000

    /// Parses recipe JSON; relative file paths in it resolve against `baseDirectory`.
    package static func parse(_ data: Data, baseDirectory: URL) throws(RecipeError) -> Recipe {
        guard data.count <= maximumRecipeBytes else {
            throw .invalid(path: "$", message: "the recipe is \(data.count) bytes; at most \(maximumRecipeBytes) are read")
        }
        // The bounded parser: nesting past its depth limit is an error, not a deep recursion.
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data, maxBytes: maximumRecipeBytes)
        } catch {
            throw .malformedJSON(error.description)
        }
        return try parse(value, baseDirectory: baseDirectory)
    }

    package static func parse(_ value: JSONValue, baseDirectory: URL) throws(RecipeError) -> Recipe {
        let fields = try RecipeFields(value, at: "$", allowed: topLevelKeys)
        let name = try fields.requiredString("name", matching: ChannelName.isValid, expected: "a name of \(ChannelName.ruleDescription)")
        var recipe = Recipe(
            name: name, description: try fields.string("description"), role: try fields.choice("role", Recipe.Role.self) ?? .host,
            display: try fields.string("display", matching: DisplayName.isValid, expected: DisplayName.ruleDescription) ?? name,
            server: try fields.string("server", matching: { JanusURL.parse($0) != nil }, expected: "a ws:// or wss:// URL"),
            room: try fields.string("room", matching: ChannelName.isValid, expected: "a room name of \(ChannelName.ruleDescription)"),
            token: try fields.string("token"), pin: try fields.string("pin"), create: try fields.bool("create") ?? false,
            duration: try fields.number("duration", in: 0...JobDuration.maximumSeconds, exclusiveLower: true),
            participants: try fields.integer("participants", in: participantRange) ?? 1,
            audio: nil, video: nil, behaviours: [], record: nil, baseDirectory: baseDirectory)
        if let tracks = fields.object["tracks"] {
            let trackFields = try RecipeFields(tracks, at: "$.tracks", allowed: ["audio", "video"])
            recipe.audio = try trackFields.object["audio"].map { value throws(RecipeError) in try audioSource(value, at: "$.tracks.audio") }
            recipe.video = try trackFields.object["video"].map { value throws(RecipeError) in try videoSource(value, at: "$.tracks.video") }
        }
        for (index, item) in (try fields.array("behaviours", maxCount: maximumBehaviours) ?? []).enumerated() {
            recipe.behaviours.append(try behaviour(item, at: "$.behaviours[\(index)]"))
        }
        recipe.record = try fields.object["record"].map { value throws(RecipeError) in try record(value, at: "$.record") }
        recipe.captions = try fields.object["captions"].map { value throws(RecipeError) in try captions(value, at: "$.captions", recipe: recipe) }
        recipe.agent = try fields.object["agent"].map { value throws(RecipeError) in try voiceAgent(value, at: "$.agent", recipe: recipe) }
        try checkRules(recipe)
        return recipe
    }

    private static func audioSource(_ value: JSONValue, at path: String) throws(RecipeError) -> Recipe.AudioSource {
        let source = try sourceName(value, at: path, choices: audioSources)
        switch source {
        case "tone":
            let fields = try RecipeFields(value, at: path, allowed: ["source", "frequency", "amplitude"])
            return .tone(frequency: try fields.number("frequency", in: 20...20_000) ?? 440,
                         amplitude: try fields.number("amplitude", in: 0...1) ?? 0.5)
        case "file":
            return .file(try fileList(value, at: path))
        case "speech":
            let fields = try RecipeFields(value, at: path, allowed: ["source", "voice", "speed"])
            let voice = try fields.string("voice", matching: isVoiceName, expected: "an espeak-ng voice name such as en or en-us") ?? "en"
            return .speech(voice: voice, wordsPerMinute: try fields.integer("speed", in: 80...450) ?? 160)
        case "echo":
            let fields = try RecipeFields(value, at: path, allowed: ["source", "delay_ms"])
            return .echo(delayMilliseconds: try fields.integer("delay_ms", in: echoDelayMilliseconds) ?? 500)
        default:
            _ = try RecipeFields(value, at: path, allowed: ["source"])
            return .silence
        }
    }

    private static func videoSource(_ value: JSONValue, at path: String) throws(RecipeError) -> Recipe.VideoSource {
        let source = try sourceName(value, at: path, choices: videoSources)
        guard source == "pattern" else { return .file(try fileList(value, at: path)) }
        let fields = try RecipeFields(value, at: path, allowed: ["source", "width", "height", "fps", "bitrate", "codec"])
        let width = try fields.integer("width", in: 16...1920) ?? 320
        let height = try fields.integer("height", in: 16...1080) ?? 240
        guard width % 2 == 0, height % 2 == 0 else { throw .invalid(path: path, message: "width and height must be even (I420)") }
        let codec = try fields.string("codec", matching: patternCodecs.contains, expected: "one of \(patternCodecs.joined(separator: ", "))")
        return .pattern(width: width, height: height, framesPerSecond: try fields.integer("fps", in: 1...60) ?? 15,
                        bitrate: try fields.integer("bitrate", in: 50_000...5_000_000) ?? 500_000,
                        codec: patternCodec(codec ?? "vp8"))
    }

    /// The codec of a `codec` value of ``patternCodecs``: nil for `room`, the room's choice.
    package static func patternCodec(_ name: String) -> MediaCodec? {
        name == "room" ? nil : MediaCodec(encodingName: name)
    }

    private static func sourceName(_ value: JSONValue, at path: String, choices: [String]) throws(RecipeError) -> String {
        guard case .object(let object) = value else { throw .invalid(path: path, message: "expected an object, got \(RecipeFields.kind(of: value))") }
        guard let source = object["source"] else { throw .invalid(path: "\(path).source", message: "required (one of \(choices.joined(separator: ", ")))") }
        guard case .string(let name) = source, choices.contains(name) else {
            throw .invalid(path: "\(path).source", message: "expected one of \(choices.joined(separator: ", ")), got \(RecipeFields.show(source))")
        }
        return name
    }

    private static func fileList(_ value: JSONValue, at path: String) throws(RecipeError) -> Recipe.FileList {
        let fields = try RecipeFields(value, at: path, allowed: ["source", "playlist", "loop"])
        guard let playlist = try fields.strings("playlist", maxCount: maximumPlaylist) else { throw .invalid(path: fields.child("playlist"), message: "required (a list of files)") }
        return Recipe.FileList(playlist: playlist, loop: try fields.bool("loop") ?? false)
    }

    private static func behaviour(_ value: JSONValue, at path: String) throws(RecipeError) -> Recipe.Behaviour {
        let fields = try RecipeFields(value, at: path, allowed: ["on", "every", "times", "send", "say"])
        let trigger: Recipe.Behaviour.Trigger
        switch (try fields.string("on", matching: triggers.contains, expected: "one of \(triggers.joined(separator: ", "))"),
                try fields.number("every", in: 0.1...86_400)) {
        case (.some, .some):
            throw .invalid(path: path, message: "give either \"on\" or \"every\", not both")
        case (.none, .none):
            throw .invalid(path: path, message: "needs a trigger: \"on\" (\(triggers.joined(separator: ", "))) or \"every\" (seconds)")
        case (.some(let on), .none):
            guard !fields.has("times") else { throw .invalid(path: fields.child("times"), message: "only with \"every\"") }
            trigger = on == "start" ? .start : on == "user_joined" ? .userJoined : .userLeft
        case (.none, .some(let seconds)):
            trigger = .every(seconds: seconds, times: try fields.integer("times", in: 1...1_000_000))
        }
        let send = try message(fields)
        let say = try fields.string("say")
        guard send != nil || say != nil else { throw .invalid(path: path, message: "needs an action: \"send\" and/or \"say\"") }
        return Recipe.Behaviour(trigger: trigger, send: send, say: say)
    }

    /// `send`: a non-empty text or a JSON object, at most ``maximumMessageBytes`` as sent.
    static func message(_ fields: RecipeFields) throws(RecipeError) -> Recipe.MessageTemplate? {
        switch fields.object["send"] {
        case nil: return nil
        case .string(let text)? where !text.isEmpty:
            try RecipeFields.checkSize(text, at: fields.child("send"), maxBytes: maximumMessageBytes)
            return .text(text)
        case .object(let object)?:
            try RecipeFields.checkSize(JSONValue.object(object).serialized(), at: fields.child("send"), maxBytes: maximumMessageBytes)
            return .json(.object(object))
        case let other?:
            throw .invalid(path: fields.child("send"), message: "expected a text or a JSON object, got \(RecipeFields.show(other))")
        }
    }

    private static func record(_ value: JSONValue, at path: String) throws(RecipeError) -> Recipe.RecordSettings {
        let fields = try RecipeFields(
            value, at: path, allowed: ["formats", "out", "max_duration", "max_bytes", "idle_timeout", "segment", "notice", "composite"])
        let known = RecordingFormats.Format.allCases.map(\.rawValue)
        let formats = try fields.strings("formats", maxCount: RecordingFormats.Format.allCases.count) ?? ["webm", "wav", "data"]
        if let index = formats.firstIndex(where: { !known.contains($0) }) {
            throw .invalid(path: "\(fields.child("formats"))[\(index)]", message: "expected one of \(known.joined(separator: ", ")), got \"\(formats[index])\"")
        }
        var limits = RecordingLimits(maxDuration: try fields.number("max_duration", in: 0...JobDuration.maximumSeconds, exclusiveLower: true))
        switch fields.object["max_bytes"] {
        case nil: break
        case .string(let text)?:
            guard let bytes = RecordingLimits.bytes(parsing: text) else {
                throw .invalid(path: fields.child("max_bytes"), message: "expected \(RecordingLimits.bytesRule), got \"\(text.prefix(40))\"")
            }
            limits.maxBytes = bytes
        default: limits.maxBytes = try fields.integer("max_bytes", in: 1...Int(RecordingLimits.maximumBytes)).map(Int64.init)
        }
        if let idle = try fields.number("idle_timeout", in: 0...JobDuration.maximumSeconds), idle > 0 { limits.idleTimeout = idle }
        let segments = try fields.number("segment", in: RecordingSegments.minimumSeconds...RecordingSegments.maximumSeconds)
            .flatMap(RecordingSegments.init(seconds:))
        let notice = try fields.string("notice", matching: { RecordingNotice(rawValue: $0) != nil }, expected: RecordingNotice.rule)
            .flatMap(RecordingNotice.init(rawValue:))
        var settings = Recipe.RecordSettings(formats: formats, out: try fields.string("out"), limits: limits, segments: segments, notice: notice)
        if let composite = fields.object["composite"] {
            guard formats.contains(RecordingFormats.Format.composite.rawValue) else {
                throw .invalid(path: fields.child("composite"), message: "sets room.webm, which only formats with \"composite\" writes")
            }
            settings.composite = try self.composite(composite, at: fields.child("composite"))
        }
        return settings
    }

    /// `record.composite`: `{"size": "WxH", "fps": N, "layout": "grid" | "speaker"}`, as the
    /// `--composite-*` flags.
    private static func composite(_ value: JSONValue, at path: String) throws(RecipeError) -> CompositeSettings {
        let fields = try RecipeFields(value, at: path, allowed: ["size", "fps", "layout"])
        let fps = try fields.integer("fps", in: CompositeSettings.framesPerSecondRange)
        let layout = try fields.choice("layout", CompositeLayout.self)
        let size = try fields.string("size")
        do {
            return try CompositeSettings().applying(size: size, framesPerSecond: fps.map(String.init), layout: layout?.rawValue)
        } catch {
            throw .invalid(path: fields.child("size"), message: "\(error)")
        }
    }

    /// `captions`: `{"engine": "pocketsphinx" | "command", "command": [path, args...], "partials": bool}`.
    private static func captions(_ value: JSONValue, at path: String, recipe: Recipe) throws(RecipeError) -> Recipe.Captions {
        let fields = try RecipeFields(value, at: path, allowed: ["engine", "command", "partials"])
        let captions = Recipe.Captions(engine: try speechEngine(fields, recipe: recipe), partials: try fields.bool("partials") ?? true)
        return captions
    }

    /// Rules that span fields.
    private static func checkRules(_ recipe: Recipe) throws(RecipeError) {
        switch recipe.role {
        case .audience:
            if recipe.audio != nil || recipe.video != nil { throw .invalid(path: "$.tracks", message: "an audience recipe publishes nothing (use role host)") }
            if !recipe.behaviours.isEmpty { throw .invalid(path: "$.behaviours", message: "an audience recipe has no behaviours (use role host)") }
            if recipe.participants != 1 { throw .invalid(path: "$.participants", message: "an audience recipe joins once") }
            if recipe.record == nil { throw .invalid(path: "$.record", message: "required for role audience: an audience recipe records") }
            if recipe.captions != nil { throw .invalid(path: "$.captions", message: "captions are sent as data messages, which only a host sends (role host; use record.formats transcript to record them)") }
            if recipe.agent != nil { throw .invalid(path: "$.agent", message: "a voice agent answers, which only a host does (role host)") }
        case .host:
            if recipe.record != nil { throw .invalid(path: "$.record", message: "only an audience recipe records (role audience)") }
            if recipe.audio == nil && recipe.video == nil { throw .invalid(path: "$.tracks", message: "a host publishes at least one track (audio and/or video)") }
        }
        if recipe.agent != nil {
            guard case .speech = recipe.audio else {
                throw .invalid(path: "$.agent", message: "needs an audio track of source speech ($.tracks.audio) to answer with")
            }
        }
        for (index, behaviour) in recipe.behaviours.enumerated() where behaviour.say != nil {
            guard case .speech = recipe.audio else {
                throw .invalid(path: "$.behaviours[\(index)].say", message: "needs an audio track of source speech ($.tracks.audio)")
            }
        }
        if case .file(let audio) = recipe.audio, case .file(let video) = recipe.video {
            if audio.playlist.count != video.playlist.count {
                throw .invalid(path: "$.tracks.video.playlist", message: "with audio files too, both playlists pair entry by entry and need the same length")
            }
            if audio.loop != video.loop { throw .invalid(path: "$.tracks.video.loop", message: "must equal $.tracks.audio.loop (one playlist plays both)") }
        }
        if recipe.participants > 1 {
            if recipe.captions != nil { throw .invalid(path: "$.captions", message: "load participants (participants > 1) send no captions") }
            if recipe.agent != nil { throw .invalid(path: "$.agent", message: "load participants (participants > 1) do not answer") }
            if !recipe.behaviours.isEmpty { throw .invalid(path: "$.behaviours", message: "load participants (participants > 1) have no behaviours") }
            switch recipe.audio {
            case .echo, .speech: throw .invalid(path: "$.tracks.audio.source", message: "load participants (participants > 1) play tone, file or silence")
            default: break
            }
        }
    }

    private static func isVoiceName(_ text: String) -> Bool {
        text.count <= 40 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_+".contains($0)) }
    }
}
