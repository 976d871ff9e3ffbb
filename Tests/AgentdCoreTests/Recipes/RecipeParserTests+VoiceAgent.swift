import Foundation
import Testing

@testable import AgentdCore

/// A host recipe's `agent`: the recognizer, turn settings, both responders, the rule patterns'
/// bounds, and where an agent does not fit.
extension RecipeParserTests {
    static let speechTrack = #""tracks": {"audio": {"source": "speech"}}"#

    @Test func voiceAgentSettings() throws {
        let rules = try parse(#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "rules", "rules": [{"match": "time", "say": "It is {time}."}]}}}"#)
        let agent = try #require(rules.agent)
        #expect(agent.engine == .pocketSphinx && agent.endOfTurnMs == 500 && agent.bargeIn)
        #expect(agent.responder == .rules([Recipe.ReplyRule(match: "time", reply: Recipe.Reply(say: "It is {time}."))], fallback: nil))
        #expect(rules.listens, "an agent subscribes to the others")

        let command = try parse(#"{"name": "a", \#(Self.speechTrack), "agent": {"end_of_turn_ms": 900, "barge_in": false, "command": ["bin/stt"], "responder": {"type": "command", "command": ["bin/llm", "--fast"]}}}"#)
        let settings = try #require(command.agent)
        #expect(settings.endOfTurnMs == 900 && !settings.bargeIn)
        #expect(settings.engine == .command(executable: "/srv/recipes/bin/stt", arguments: []))
        #expect(settings.responder == .command(executable: "/srv/recipes/bin/llm", arguments: ["--fast"]))

        let shipped = try RecipeParser.parse(Data(contentsOf: Self.recipes.appendingPathComponent("agent.json")), baseDirectory: Self.recipes)
        guard case .rules(let shippedRules, let fallback)? = shipped.agent?.responder else {
            Issue.record("\(String(describing: shipped.agent))")
            return
        }
        #expect(shippedRules.count == 4 && fallback?.send != nil)
        #expect(shippedRules.last?.reply.action == .leave)
    }

    @Test("agents that cannot work name their path", arguments: [
        (#"{"name": "a", "tracks": {"audio": {"source": "silence"}}, "agent": {"responder": {"type": "command", "command": ["x"]}}}"#, "$.agent"),
        (#"{"name": "a", "role": "audience", "record": {"formats": ["wav"]}, "agent": {"responder": {"type": "command", "command": ["x"]}}}"#, "$.agent"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {}}"#, "$.agent.responder"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "llm"}}}"#, "$.agent.responder.type"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "command"}}}"#, "$.agent.responder.command"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "rules", "rules": []}}}"#, "$.agent.responder.rules"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "rules", "rules": [{"match": "x"}]}}}"#, "$.agent.responder.rules[0]"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "rules", "rules": [{"match": "(a", "say": "b"}]}}}"#, "$.agent.responder.rules[0].match"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "rules", "rules": [{"match": "(a)\\1", "say": "b"}]}}}"#, "$.agent.responder.rules[0].match"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "rules", "rules": [{"match": "a", "action": "dance"}]}}}"#, "$.agent.responder.rules[0].action"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"responder": {"type": "rules", "rules": [{"match": "a", "say": "b"}], "fallback": {}}}}"#, "$.agent.responder.fallback"),
        (#"{"name": "a", \#(Self.speechTrack), "agent": {"end_of_turn_ms": 50, "responder": {"type": "command", "command": ["x"]}}}"#, "$.agent.end_of_turn_ms"),
        (#"{"name": "a", "participants": 2, "tracks": {"audio": {"source": "tone"}}, "agent": {"responder": {"type": "command", "command": ["x"]}}}"#, "$.agent"),
    ])
    func badVoiceAgents(text: String, path: String) {
        let error = failure(text)
        #expect(error?.path == path, "\(String(describing: error))")
    }
}
