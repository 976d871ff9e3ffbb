import AgentCore

extension RecipeParser {
    package static let responderTypes = ["rules", "command"]

    /// `agent`: `{"engine", "command", "end_of_turn_ms", "barge_in", "responder"}`.
    static func voiceAgent(_ value: JSONValue, at path: String, recipe: Recipe) throws(RecipeError) -> Recipe.VoiceAgent {
        let fields = try RecipeFields(value, at: path, allowed: ["engine", "command", "end_of_turn_ms", "barge_in", "responder"])
        guard let responderValue = fields.object["responder"] else {
            throw .invalid(path: fields.child("responder"), message: "required: {\"type\": \"rules\", \"rules\": [...]} or {\"type\": \"command\", \"command\": [...]}")
        }
        return Recipe.VoiceAgent(
            engine: try speechEngine(fields, recipe: recipe),
            endOfTurnMs: try fields.integer("end_of_turn_ms", in: Recipe.VoiceAgent.endOfTurnRange) ?? 500,
            bargeIn: try fields.bool("barge_in") ?? true,
            responder: try responder(responderValue, at: fields.child("responder"), recipe: recipe))
    }

    /// `engine` (`pocketsphinx` or `command`) and `command` of captions and agent.
    static func speechEngine(_ fields: RecipeFields, recipe: Recipe) throws(RecipeError) -> Recipe.SpeechEngine {
        let engine = try fields.string("engine", matching: { ["pocketsphinx", "command"].contains($0) }, expected: "pocketsphinx or command")
        let command = try fields.strings("command", maxCount: 64)
        switch engine ?? (command == nil ? "pocketsphinx" : "command") {
        case "command":
            guard let command, let executable = command.first else {
                throw .invalid(path: fields.child("command"), message: "the command engine needs a program: [path, arguments...]")
            }
            return .command(executable: recipe.resolve(executable), arguments: Array(command.dropFirst()))
        default:
            if command != nil { throw .invalid(path: fields.child("command"), message: "only for engine command") }
            return .pocketSphinx
        }
    }

    private static func responder(_ value: JSONValue, at path: String, recipe: Recipe) throws(RecipeError) -> Recipe.Responder {
        guard case .object(let object) = value else { throw .invalid(path: path, message: "expected an object, got \(RecipeFields.kind(of: value))") }
        guard case .string(let type)? = object["type"], responderTypes.contains(type) else {
            throw .invalid(path: "\(path).type", message: "required: one of \(responderTypes.joined(separator: ", "))")
        }
        if type == "command" {
            let fields = try RecipeFields(value, at: path, allowed: ["type", "command"])
            guard let command = try fields.strings("command", maxCount: 64), let executable = command.first else {
                throw .invalid(path: fields.child("command"), message: "required: the responder program and its arguments [path, arguments...]")
            }
            return .command(executable: recipe.resolve(executable), arguments: Array(command.dropFirst()))
        }
        let fields = try RecipeFields(value, at: path, allowed: ["type", "rules", "fallback"])
        guard let items = try fields.array("rules", maxCount: Recipe.VoiceAgent.maximumRules), !items.isEmpty else {
            throw .invalid(path: fields.child("rules"), message: "required: at least one {\"match\": PATTERN, \"say\"|\"send\"|\"action\": ...}")
        }
        var rules: [Recipe.ReplyRule] = []
        for (index, item) in items.enumerated() {
            let rulePath = "\(fields.child("rules"))[\(index)]"
            let ruleFields = try RecipeFields(item, at: rulePath, allowed: ["match", "say", "send", "action"])
            let match = try ruleFields.requiredString("match", expected: "a POSIX extended regular expression")
            do {
                _ = try ReplyPattern(match)
            } catch {
                throw .invalid(path: ruleFields.child("match"), message: error.description)
            }
            rules.append(Recipe.ReplyRule(match: match, reply: try reply(ruleFields, at: rulePath)))
        }
        let fallback = try fields.object["fallback"].map { value throws(RecipeError) in
            try reply(try RecipeFields(value, at: fields.child("fallback"), allowed: ["say", "send", "action"]), at: fields.child("fallback"))
        }
        return .rules(rules, fallback: fallback)
    }

    /// A reply's `say`, `send` and `action`; at least one of them.
    private static func reply(_ fields: RecipeFields, at path: String) throws(RecipeError) -> Recipe.Reply {
        let reply = Recipe.Reply(say: try fields.string("say"), send: try message(fields),
                                 action: try fields.choice("action", Recipe.Reply.Action.self))
        guard !reply.isEmpty else { throw .invalid(path: path, message: "needs an answer: \"say\", \"send\" and/or \"action\"") }
        return reply
    }
}
