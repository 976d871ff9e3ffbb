import Agent
import AgentdCore

/// The one table of the room API's errors: each ``AgentError`` case's line, hint and exit code, for
/// every command, recipe and bot that joins a room.
extension JanusFailure {
    static func failure(for error: AgentError, server: String, room: String, platform: Platform = .janus) -> CommandFailure {
        let server = JanusURL.redacted(server)
        if platform == .whip, let failure = whipFailure(for: error, server: server) { return failure }
        switch error {
        case .unreachable(_, let reason):
            return CommandFailure(.connectionFailed, "cannot reach Janus at \(server): \(reason)", hint: "is the server up? try scripts/lab status")
        case .signalingFailed(let reason):
            return CommandFailure(.connectionFailed, reason, hint: "server \(server)")
        case .mediaFailed(let reason):
            return CommandFailure(.connectionFailed, "the media connection failed: \(reason)", hint: "check --ice-allow")
        case .relayUnavailable(let reason):
            return CommandFailure(
                .connectionFailed, "no TURN relay (--ice-policy relay): \(reason)",
                hint: "check --ice-username and --ice-credential, and that the --ice-server is reachable from --ice-allow")
        case .tokenExpired(let expiry):
            return CommandFailure(.refused, "Janus refused the token: it expired at \(expiry)", hint: "mint a fresh one with 'agentd token'")
        case .tokenRefused(let reason):
            return CommandFailure(.refused, "Janus refused the token: \(reason)", hint: "check --token, or mint one with 'agentd token'")
        case .tokenLacksPlugin(let reason):
            return CommandFailure(.refused, "the token does not allow the VideoRoom plugin: \(reason)", hint: "mint it with --plugins janus.plugin.videoroom")
        case .roomNotFound:
            return CommandFailure(.refused, "room '\(room)' does not exist", hint: "pass --create to create it")
        case .roomRefused(let reason):
            return CommandFailure(.refused, "room '\(room)' refused us: \(reason)", hint: "check --pin or the room token")
        case .codecRefused(let refused, let allowed):
            return CodecRefusal.failure(room: room, refused: refused, codecs: allowed)
        case .invalidName, .unsupported:
            return CommandFailure(.usage, error.description)
        case .server(let code, let reason):
            return CommandFailure(.failure, "Janus error \(code): \(reason)")
        case .protocolViolation(let what):
            return CommandFailure(.failure, "unexpected answer from Janus: \(what)")
        case .alreadyJoined:
            return CommandFailure(.failure, "already in room '\(room)' on \(server)")
        case .notHost, .channelClosed, .nothingToPublish, .dataChannelUnavailable:
            return CommandFailure(.failure, error.description)
        }
    }

    /// The lines that read differently for a WHIP endpoint; nil where the Janus line fits both.
    private static func whipFailure(for error: AgentError, server: String) -> CommandFailure? {
        switch error {
        case .unreachable(_, let reason):
            CommandFailure(.connectionFailed, "cannot reach the WHIP endpoint at \(server): \(reason)", hint: "is the WHIP server up? try scripts/lab whip up")
        case .tokenRefused(let reason):
            CommandFailure(.refused, "the WHIP endpoint refused us: \(reason)", hint: "check --token; simple-whip-server also answers 403 while the endpoint is in use")
        case .roomNotFound:
            CommandFailure(.refused, "no WHIP endpoint at \(server)", hint: "check the --whip URL; the endpoint must exist first")
        case .server(let code, let reason):
            CommandFailure(.failure, "the WHIP endpoint answered \(code): \(reason)")
        case .protocolViolation(let what):
            CommandFailure(.failure, "unexpected answer from the WHIP endpoint: \(what)")
        default:
            nil
        }
    }
}
