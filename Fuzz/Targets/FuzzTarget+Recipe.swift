import Agent
import AgentdCore
import Foundation
import Recorder

extension FuzzTarget {
    /// Bot recipes, from a file (`agentd bot`) or inline in `POST /v1/bots`: bytes into
    /// ``RecipeParser``. A text is either refused as not JSON,
    /// or refused naming a JSON path, or read into a recipe that keeps every rule the parser
    /// promises (names, bounds, cross-field rules), so the runner never sees one it must refuse.
    public static let recipe = FuzzTarget(name: "recipe", summary: "RecipeParser.parse: JSON, fields, bounds, cross-field rules, message templates", maxInputLength: 8192) { bytes in
        let recipe: Recipe
        do throws(RecipeError) {
            recipe = try RecipeParser.parse(Data(bytes), baseDirectory: URL(fileURLWithPath: "/srv/recipes", isDirectory: true))
        } catch {
            switch error {
            case .malformedJSON: break
            case .invalid(let path, _): FuzzCheck.expect(path.hasPrefix("$"), "an error at \(path), not a JSON path")
            case .unreadable, .notFound: FuzzCheck.expect(false, "parsing bytes gave \(error)")
            }
            _ = error.description
            return
        }
        checkRules(recipe)
    }

    /// What a parsed recipe promises.
    private static func checkRules(_ recipe: Recipe) {
        FuzzCheck.expect(ChannelName.isValid(recipe.name), "name \(recipe.name)")
        FuzzCheck.expect(DisplayName.isValid(recipe.display), "display \(recipe.display)")
        if let room = recipe.room { FuzzCheck.expect(ChannelName.isValid(room), "room \(room)") }
        if let server = recipe.server { FuzzCheck.expect(JanusURL.parse(server) != nil, "server \(server)") }
        if let duration = recipe.duration { FuzzCheck.expect(JobDuration.isValid(duration), "duration \(duration)") }
        FuzzCheck.expect(RecipeParser.participantRange.contains(recipe.participants), "\(recipe.participants) participants")
        FuzzCheck.expect(recipe.behaviours.count <= RecipeParser.maximumBehaviours, "\(recipe.behaviours.count) behaviours")
        switch recipe.role {
        case .audience:
            FuzzCheck.expect(recipe.audio == nil && recipe.video == nil && recipe.behaviours.isEmpty && recipe.record != nil, "audience \(recipe)")
            if let record = recipe.record {
                // The runner hands these to RecordingFormats; it must take every list the parser did.
                FuzzCheck.expect((try? RecordingFormats(parsing: record.formats.joined(separator: ","))) != nil, "formats \(record.formats)")
            }
        case .host:
            FuzzCheck.expect(recipe.record == nil && (recipe.audio != nil || recipe.video != nil), "host \(recipe)")
        }
        switch recipe.audio {
        case .echo(let delay)?: FuzzCheck.expect(RecipeParser.echoDelayMilliseconds.contains(delay), "echo delay \(delay)")
        case .file(let list)?: checkPlaylist(list, of: recipe)
        default: break
        }
        switch recipe.video {
        case .pattern(let width, let height, let framesPerSecond, let bitrate, let codec)?:
            FuzzCheck.expect(width % 2 == 0 && height % 2 == 0 && width > 0 && height > 0 && framesPerSecond > 0 && bitrate > 0,
                             "pattern \(width)x\(height) at \(framesPerSecond) fps, \(bitrate) b/s")
            // The bot's track takes the codec and every pattern size the parser lets through.
            FuzzCheck.expect(codec.map { [.vp8, .h264].contains($0) } ?? true, "pattern codec \(String(describing: codec))")
            if let codec { FuzzCheck.expect(VideoEncoder.sizeRefusal(codec: codec, width: width, height: height) == nil, "\(codec) at \(width)x\(height)") }
        case .file(let list)?: checkPlaylist(list, of: recipe)
        default: break
        }
        _ = recipe.listens
        if let agent = recipe.agent {
            var speaks = false
            if case .speech? = recipe.audio { speaks = true }
            FuzzCheck.expect(speaks && recipe.role == .host && recipe.listens, "an agent without a speech track: \(recipe)")
            FuzzCheck.expect(Recipe.VoiceAgent.endOfTurnRange.contains(agent.endOfTurnMs), "end of turn \(agent.endOfTurnMs) ms")
            if case .rules(let rules, let fallback) = agent.responder {
                FuzzCheck.expect(!rules.isEmpty && rules.count <= Recipe.VoiceAgent.maximumRules, "\(rules.count) rules")
                // The runner compiles every pattern the parser let through.
                for rule in rules { FuzzCheck.expect((try? ReplyPattern(rule.match)) != nil, "pattern \(rule.match)") }
                for reply in rules.map(\.reply) + (fallback.map { [$0] } ?? []) {
                    FuzzCheck.expect(!reply.isEmpty, "a reply that does nothing")
                    if case .json? = reply.send, let text = reply.send?.render(values: ["name": "a \"q\" {1}", "1": "\\", "text": "{name}"]) {
                        FuzzCheck.expect((try? JSONValue(parsing: text)) != nil, "a JSON reply renders as \(text)")
                    }
                }
            }
        }
        for behaviour in recipe.behaviours {
            FuzzCheck.expect(behaviour.send != nil || behaviour.say != nil, "a behaviour that does nothing")
            if behaviour.say != nil {
                var speaks = false
                if case .speech? = recipe.audio { speaks = true }
                FuzzCheck.expect(speaks, "say without a speech track")
            }
            // A JSON message renders as JSON, whatever the name it is filled with.
            if case .json? = behaviour.send, let text = behaviour.send?.render(name: #"a "quoted" {name} \ name"#) {
                FuzzCheck.expect((try? JSONValue(parsing: text)) != nil, "a JSON message renders as \(text)")
            }
        }
    }

    private static func checkPlaylist(_ list: Recipe.FileList, of recipe: Recipe) {
        FuzzCheck.expect(!list.playlist.isEmpty && list.playlist.count <= RecipeParser.maximumPlaylist, "a playlist of \(list.playlist.count)")
        for file in list.playlist { FuzzCheck.expect(recipe.resolve(file).hasPrefix("/"), "\(file) resolves to \(recipe.resolve(file))") }
    }
}
