/// `agentd bot`: run a bot recipe.
enum BotCommand: Command {
    static let spec = CommandSpec(
        name: "bot",
        summary: "Run a bot recipe (JSON) in a room.",
        positionals: ["RECIPE.json"],
        options: [
            .value("server", "WS_URL", "Janus WebSocket URL; overrides the recipe."),
            .value("room", "ROOM", "Room id; overrides the recipe."),
            SharedOptions.duration, SharedOptions.iceAllow,
        ],
        notes: [SharedOptions.exitCodeNote]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        _ = try arguments.serverURL()
        _ = try arguments.roomName()
        _ = try arguments.seconds("duration")
        throw NotYetAvailable(command: "bot", landsWith: "recipes land with issue 6").failure
    }
}
