/// `agentd play`: publish files into a room as a visible participant.
enum PlayCommand: Command {
    static let spec = CommandSpec(
        name: "play",
        summary: "Join a room as a host and play audio and/or video files into it.",
        options: [
            SharedOptions.server, SharedOptions.room,
            .value("display", "NAME", "Display name others see.", required: true),
            .value("audio", "FILE", "WAV, FLAC, Ogg Vorbis (re-encoded to Opus) or Ogg/Opus, WebM (sent as is)."),
            .value("video", "FILE", "IVF (VP8) or WebM (VP8), sent as is."),
            .flag("loop", "Start again at the end of the files."),
            SharedOptions.duration, SharedOptions.token, SharedOptions.pin, SharedOptions.create,
            SharedOptions.iceAllow,
        ],
        notes: [SharedOptions.exitCodeNote]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        _ = try arguments.serverURL()
        _ = try arguments.roomName()
        _ = try arguments.seconds("duration")
        if arguments.value("audio") == nil, arguments.value("video") == nil {
            throw UsageError.missingRequired(option: "audio or --video")
        }
        throw NotYetAvailable(command: "play", landsWith: "publishing lands with issue 4").failure
    }
}
