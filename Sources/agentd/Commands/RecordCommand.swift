/// `agentd record`: join as an unseen audience member and write the recording directory.
enum RecordCommand: Command {
    static let spec = CommandSpec(
        name: "record",
        summary: "Join a room as an unseen audience member and record every participant to disk.",
        options: [
            SharedOptions.server, SharedOptions.room, SharedOptions.token, SharedOptions.pin,
            .value("display", "NAME", "Display name used inside Janus (never shown as a publisher)."),
            .value("out", "DIR", "Recording directory. Default: ./recordings/<room>-<UTC yyyyMMdd'T'HHmmss'Z'>/."),
            SharedOptions.duration,
            .value("formats", "LIST", "Any of webm,wav,ogg,mix,data. Default: webm,wav,data."),
            SharedOptions.create,
            .flag("json", "Print a JSON summary on stdout at the end."),
            SharedOptions.iceAllow,
        ],
        notes: ["SIGINT and SIGTERM stop cleanly and finalize every file.", SharedOptions.exitCodeNote]
    )

    static let knownFormats: Set<String> = ["webm", "wav", "ogg", "mix", "data"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        _ = try arguments.serverURL()
        _ = try arguments.roomName()
        _ = try arguments.seconds("duration")
        if let formats = arguments.list("formats") {
            for format in formats where !knownFormats.contains(format) {
                throw UsageError.invalidValue(option: "formats", value: format, expected: "one of webm,wav,ogg,mix,data")
            }
        }
        throw NotYetAvailable(command: "record", landsWith: "recording lands with issue 3").failure
    }
}
