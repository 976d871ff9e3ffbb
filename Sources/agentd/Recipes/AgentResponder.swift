import AgentdCore

/// What a voice agent tells its responder, and how the responder answers: through the
/// `answer` closure it was made with, at once (rules) or whenever its program writes (command).
protocol AgentResponder: Sendable {
    func hear(_ event: AgentHeard)
    /// Stops the responder (a program is ended); idempotent.
    func stop() async
}
