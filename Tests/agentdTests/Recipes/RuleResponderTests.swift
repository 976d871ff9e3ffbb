import AgentdCore
import Synchronization
import Testing

@testable import agentd

/// The rules responder: the first matching rule answers with captures, the speaker's name and
/// the time filled in; the fallback answers the rest; only transcripts are answered.
@Suite struct RuleResponderTests {
    @Test func firstMatchingRuleAnswersAndTheFallbackTheRest() throws {
        let answers = Mutex<[ResponderAnswer]>([])
        let responder = try RuleResponder(
            rules: [
                Recipe.ReplyRule(match: "\\b(time|clock)\\b", reply: Recipe.Reply(say: "It is {time}, {name}.")),
                Recipe.ReplyRule(match: "my name is ([a-z]+)", reply: Recipe.Reply(say: "Hello {1}.", send: .json(.object(["said": .string("{0}")])))),
                Recipe.ReplyRule(match: "time", reply: Recipe.Reply(say: "never reached")),
                Recipe.ReplyRule(match: "bye", reply: Recipe.Reply(action: .leave)),
            ],
            fallback: Recipe.Reply(send: .text("{name} said {text}")), timeOfDay: { "8:05" }) { answer in answers.withLock { $0.append(answer) } }
        responder.hear(.transcript(from: "ann", text: "what time is it", startMs: 0, endMs: 900))
        responder.hear(.transcript(from: "ann", text: "well my name is Bob", startMs: 0, endMs: 900))
        responder.hear(.transcript(from: "ann", text: "so long and bye", startMs: 0, endMs: 900))
        responder.hear(.transcript(from: "bob", text: "something else", startMs: 0, endMs: 900))
        responder.hear(.joined(name: "carl"))
        responder.hear(.transcript(from: "bob", text: "", startMs: 0, endMs: 900))
        #expect(answers.withLock { $0 } == [
            ResponderAnswer(say: "It is 8:05, ann."),
            ResponderAnswer(say: "Hello Bob.", send: #"{"said":"my name is Bob"}"#),
            ResponderAnswer(leave: true),
            ResponderAnswer(send: "bob said something else"),
        ])
        let silent = try RuleResponder(rules: [Recipe.ReplyRule(match: "x", reply: Recipe.Reply(say: "y"))], fallback: nil) { _ in }
        #expect(silent.reply(to: "nothing here", from: "ann") == nil, "no fallback: no answer")
    }

    @Test func theUTCClockReadsHoursAndMinutes() {
        let text = RuleResponder.utcTimeOfDay()
        let parts = text.split(separator: ":")
        #expect(parts.count == 2 && parts[1].count == 2, "\(text)")
        #expect(Int(parts[0]).map { (0...23).contains($0) } == true && Int(parts[1]).map { (0...59).contains($0) } == true)
    }
}
