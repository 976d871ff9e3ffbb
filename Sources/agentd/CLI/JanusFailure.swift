import Agent
import AgentdCore

/// Turns the room's errors into the CLI contract's one-line errors and exit codes: refused (3)
/// for auth, token, pin and missing rooms; connection failed (4) for the rest of what the network
/// can do to us. The one funnel: a Janus error becomes an ``AgentError`` in Agent
/// (`AgentError+Janus.swift`), and every AgentError reads through one table
/// (`JanusFailure+AgentError.swift`), whichever command or bot met it.
enum JanusFailure {
    /// Whose errors a line reports: the same table words a few lines by platform.
    enum Platform: Sendable {
        /// A Janus VideoRoom (`--server`, `--room`).
        case janus
        /// A WHIP endpoint (`--whip`): no room of ours, a bearer token, no `agentd token`.
        case whip
    }

    /// - Parameter server: the URL as given; the line shows it with its credentials masked.
    static func failure(for error: Error, server: String, room: String, platform: Platform = .janus) -> CommandFailure {
        let server = JanusURL.redacted(server)
        switch error {
        case let failure as CommandFailure:
            return failure
        case let agent as AgentError:
            return failure(for: agent, server: server, room: room, platform: platform)
        case let janus as JanusError:
            // A request made straight on a Janus session (`participants`) carries no token.
            return failure(for: AgentError(janus, server: server, room: room, token: nil), server: server, room: room)
        default:
            // A bot's own errors (conflicting sources, nothing to publish) and anything else.
            return CommandFailure(.failure, ErrorText.describe(error))
        }
    }
}
