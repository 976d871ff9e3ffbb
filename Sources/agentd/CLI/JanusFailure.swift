import Agent
import AgentdCore

/// Turns Janus and transport errors into the CLI contract's one-line errors and exit codes:
/// refused (3) for auth, token, pin and missing rooms; connection failed (4) for the rest of
/// what the network can do to us.
enum JanusFailure {
    /// - Parameter server: the URL as given; the line shows it with its credentials masked.
    static func failure(for error: Error, server: String, room: String) -> CommandFailure {
        let server = JanusURL.redacted(server)
        if let agent = error as? AgentError { return failure(for: agent, server: server, room: room) }
        guard let janus = error as? JanusError else {
            if let failure = error as? CommandFailure { return failure }
            return CommandFailure(.failure, ErrorText.describe(error))
        }
        switch janus {
        case .connectFailed(let reason):
            return CommandFailure(.connectionFailed, "cannot reach Janus at \(server): \(reason)", hint: "is the server up? try scripts/lab status")
        case .connectionClosed(let code, let reason):
            return CommandFailure(.connectionFailed, "Janus closed the connection (\(code) \(reason))")
        case .timeout(let request):
            return CommandFailure(.connectionFailed, "Janus did not answer '\(request)' in time", hint: "server \(server)")
        case .server(JanusError.Code.unauthorized, let reason):
            return CommandFailure(.refused, "Janus refused the token: \(reason)", hint: "check --token, or mint one with 'agentd token'")
        case .server(JanusError.Code.unauthorizedPlugin, let reason):
            return CommandFailure(.refused, "the token does not allow the VideoRoom plugin: \(reason)", hint: "mint it with --plugins janus.plugin.videoroom")
        case .plugin(JanusError.Code.noSuchRoom, _):
            return CommandFailure(.refused, "room '\(room)' does not exist", hint: "pass --create to create it")
        case .plugin(JanusError.Code.roomUnauthorized, let reason):
            return CommandFailure(.refused, "room '\(room)' refused us: \(reason)", hint: "check --pin or the room token")
        case .server(let code, let reason), .plugin(let code, let reason):
            return CommandFailure(.failure, "Janus error \(code): \(reason)")
        case .malformed(let what):
            return CommandFailure(.failure, "unexpected answer from Janus: \(what)")
        case .gone(let what):
            return CommandFailure(.failure, "Janus \(what) is gone")
        }
    }
}
