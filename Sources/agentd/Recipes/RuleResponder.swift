import AgentdCore
import Foundation

/// The built-in `rules` responder: the first rule whose pattern matches a turn's words answers
/// with its reply, placeholders filled; a turn no rule matches gets the fallback, if any.
/// Everything else the agent hears is ignored.
struct RuleResponder: AgentResponder {
    private let rules: [(pattern: ReplyPattern, reply: Recipe.Reply)]
    private let fallback: Recipe.Reply?
    private let answer: @Sendable (ResponderAnswer) -> Void
    private let clock: @Sendable () -> String

    /// - Parameter timeOfDay: the `{time}` placeholder's value (UTC `H:MM` unless a test says otherwise).
    init(rules: [Recipe.ReplyRule], fallback: Recipe.Reply?, timeOfDay: @escaping @Sendable () -> String = RuleResponder.utcTimeOfDay,
         answer: @escaping @Sendable (ResponderAnswer) -> Void) throws {
        self.rules = try rules.map { (try ReplyPattern($0.match), $0.reply) }
        self.fallback = fallback
        self.answer = answer
        clock = timeOfDay
    }

    func hear(_ event: AgentHeard) {
        guard case .transcript(let from, let text, _, _) = event, !text.isEmpty else { return }
        if let reply = reply(to: text, from: from) { answer(reply) }
    }

    /// The answer to `text` said by `from`, or nil when no rule matches and there is no fallback.
    func reply(to text: String, from: String) -> ResponderAnswer? {
        var values = ["name": from, "text": text, "time": clock()]
        for rule in rules {
            guard let groups = rule.pattern.firstMatch(in: text) else { continue }
            for (index, group) in groups.enumerated() { values[String(index)] = group }
            return ResponderAnswer(rule.reply, values: values)
        }
        return fallback.map { ResponderAnswer($0, values: values) }
    }

    func stop() async {}

    static let utcTimeOfDay: @Sendable () -> String = {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return "\(parts.tm_hour):" + (parts.tm_min < 10 ? "0" : "") + "\(parts.tm_min)"
    }
}
