/// Something the agent heard or saw, as a responder gets it.
enum AgentHeard: Sendable, Equatable {
    /// A finished turn: `from` said `text` from `startMs` to `endMs` (ms since the agent began listening).
    case transcript(from: String, text: String, startMs: Int64, endMs: Int64)
    case joined(name: String)
    case left(name: String)
    /// `by` began to speak while the bot talked, and the bot stopped (barge-in).
    case interrupted(by: String)
    /// A data message from a participant.
    case data(from: String, text: String)
}
