/// `agentd participants`: list who is in a room. Not in the original contract; it is the smallest
/// useful job the Janus signaling can do on its own, and the demo uses it.
enum ParticipantsCommand: Command {
    static let spec = CommandSpec(
        name: "participants",
        summary: "List the participants of a room (display name, id, published streams).",
        options: [
            SharedOptions.server, SharedOptions.room, SharedOptions.token, SharedOptions.pin,
            .flag("json", "Print the list as JSON on stdout."),
        ],
        notes: [SharedOptions.exitCodeNote]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        throw NotYetAvailable(command: "participants", landsWith: "waiting for the Janus client").failure
    }
}
