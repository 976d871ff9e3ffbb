/// `agentd serve`: the daemon with the HTTP job API.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Run the daemon: an HTTP JSON API under /v1 that records rooms and runs bots on demand.",
        options: [
            .value("config", "FILE", "JSON config file (output root, job limits, server URL, ICE allow-list, api_token)."),
            .value("listen", "HOST:PORT", "Address to listen on. Default: 127.0.0.1:8080."),
        ],
        notes: ["The API token comes from the config's api_token or AGENTD_API_TOKEN.", SharedOptions.exitCodeNote]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        throw NotYetAvailable(command: "serve", landsWith: "the daemon lands with issue 6").failure
    }
}
