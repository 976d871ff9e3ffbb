import Agent
import BotKit
import Foundation

/// `agentd play`: publish files into a room as a visible participant.
enum PlayCommand: Command {
    static let spec = CommandSpec(
        name: "play",
        summary: "Join a room as a host and play audio and/or video files into it (a Janus room, or a WHIP endpoint with --whip).",
        options: [
            // Not required here: --whip replaces both.
            .value("server", "WS_URL", "Janus WebSocket URL, e.g. ws://10.77.0.2:8188/. Required unless --whip is given."),
            .value("room", "ROOM", "Room id (a string: [A-Za-z0-9_-]{1,64}). Required unless --whip is given."),
            .value(
                "whip", "URL",
                "Publish through a WHIP endpoint (RFC 9725), e.g. http://10.77.0.2:7080/whip/endpoint/ID, instead of a Janus room; "
                    + "excludes --server, --room, --pin and --create. --token is then the endpoint's bearer token. "
                    + "The room and the name others see are the endpoint's."),
            .value("display", "NAME", "Display name others see (with --whip only in the closing line).", required: true),
            .value("audio", "FILE", "Ogg/Opus (.opus) or WebM/Matroska (.webm, .mkv) Opus, sent as stored; or WAV, FLAC, Ogg Vorbis at any rate, encoded to Opus."),
            .value("video", "FILE", "VP8 IVF, H.264 Annex B (.h264, 30 fps), or WebM/Matroska (.webm, .mkv: Opus with VP8 or H.264), "
                + "sent as stored; a WebM's audio plays too unless --audio is given."),
            .flag("loop", "Start again at the end of the files."),
            SharedOptions.duration,
            .value("token", "T", "Janus core token, sent on every request; with --whip, the bearer token."),
            SharedOptions.pin, SharedOptions.create,
        ] + SharedOptions.ice,
        notes: [
            "SIGINT and SIGTERM stop cleanly. A progress line (elapsed, frames, pass, kbps) goes to stderr when it is a terminal.",
            "At the end one line says what was sent and how many NACKs and keyframe requests came back.",
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let target = try PlayTarget(arguments)
        let duration = try arguments.seconds("duration")
        guard let display = try arguments.displayName() else { throw UsageError.missingRequired(option: "display") }
        let audioPath = arguments.value("audio")
        let videoPath = arguments.value("video")
        guard audioPath != nil || videoPath != nil else { throw UsageError.missingRequired(option: "audio or --video") }
        let ice = try SharedOptions.ice(arguments)
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }
        // Every file is opened before anything joins: a bad file exits 2 with the reason. The
        // opening runs off the cooperative pool, and a signal meanwhile ends the command.
        let sources: [EncodedFrameSource]
        do {
            sources = try await FileOpening.run(stoppingOn: { _ = await stopSignal.wait() }) {
                try PlayFiles.open(audio: audioPath, video: videoPath)
            }
        } catch is CancellationError {
            context.standardError("agentd: stopped by signal while opening the files; nothing was played")
            return .ok
        }

        let configuration = BotConfiguration(
            join: ice.applied(to: RoomJoin(endpoint: target.endpoint, display: display, role: .host, create: arguments.has("create"))),
            credentials: ice.applied(to: RoomCredentials(token: arguments.value("token"), pin: arguments.value("pin"))), listens: false)
        var player = FilePlayer(configuration: configuration, loops: context.loops, stopSignal: stopSignal)
        player.say = context.standardError
        do {
            let summary = try await player.play(FramePlaylist(sources: sources, loop: arguments.has("loop")), duration: duration)
            context.standardError("agentd: played into \(configuration.roomName) as \(display): \(summary.line)")
            return .ok
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw JanusFailure.failure(for: error, server: target.endpoint.server, room: configuration.roomName, platform: target.platform)
        }
    }
}
