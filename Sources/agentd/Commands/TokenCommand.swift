import Agent
import Foundation

/// `agentd token`: mint a Janus core token for development.
enum TokenCommand: Command {
    static let spec = CommandSpec(
        name: "token",
        summary: "Mint a Janus core token (token_auth_secret) for development and print it.",
        options: [
            .value("secret", "S", "The server's token_auth_secret.", required: true),
            .value("plugins", "LIST", "Plugins the token allows, comma-separated. Default: janus.plugin.videoroom."),
            .value("ttl", "SEC", "Seconds until the token expires, at most 315360000 (10 years). Default: 86400."),
        ],
        notes: ["The token has the form <expiry>,janus,<plugins>:<base64 HMAC-SHA1>."]
    )

    /// Ten years: longer than any development token needs, and far inside what the expiry
    /// arithmetic (here, in Janus and in the token warning) holds.
    static let maximumTTL: Double = 10 * 365 * 86_400

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let secret = try arguments.required("secret")
        let plugins = arguments.list("plugins") ?? ["janus.plugin.videoroom"]
        guard !plugins.isEmpty else {
            throw UsageError.invalidValue(option: "plugins", value: arguments.value("plugins") ?? "", expected: "a list of plugin names")
        }
        let ttl = try arguments.seconds("ttl", atMost: maximumTTL, rule: "a number of seconds above 0, at most \(Int(maximumTTL)) (10 years)") ?? 86_400
        let expiry = Date().addingTimeInterval(ttl)
        let token = JanusToken.mint(secret: secret, plugins: plugins, expiry: expiry)
        context.standardOutput(token.value)
        return .ok
    }
}
