import Agent
import Foundation
import Recorder

/// `agentd record`: join as an unseen audience member and write the recording directory.
enum RecordCommand: Command {
    static let spec = CommandSpec(
        name: "record",
        summary: "Join a room as an unseen audience member and record every participant to disk.",
        options: [
            SharedOptions.server, SharedOptions.room, SharedOptions.token, SharedOptions.pin,
            .value("display", "NAME", "Display name used inside Janus (never shown as a publisher). Default: agentd-recorder."),
            .value("out", "DIR", "Recording directory. Default: ./recordings/<room>-<UTC yyyyMMdd'T'HHmmss'Z'>/. "
                + "One that already holds a recording (manifest.json, media files, data.jsonl) is refused (exit 5)."),
            .flag("overwrite", "Record into an --out that holds a recording: its files of the same names are replaced."),
            RecordPlan.continueOption,
            SharedOptions.duration,
        ] + RecordPlan.limitOptions + [
            RecordPlan.segmentOption,
            RecordPlan.noticeOption,
            RecordPlan.captureOption,
            .value("formats", "LIST", "Any of webm,wav,ogg,mix,data,composite,transcript. Default: webm,wav,data. webm (or mkv) writes <name>.webm, or <name>.mkv (Matroska) for a participant whose video is H.264. composite writes room.webm: one VP8 picture of the room and the mix as Opus. transcript writes transcript.jsonl and captions.vtt: what each participant said (pocketsphinx, offline)."),
            .value("composite-size", "WxH", "room.webm's picture size: even numbers, 64x64 to 3840x2160. Default: 1280x720."),
            .value("composite-fps", "N", "room.webm's frame rate, 1 to 60. Default: 15."),
            .value("composite-layout", "grid|speaker", "grid: everyone in equal tiles; speaker: the active speaker large, the others in a strip. Default: grid."),
            SharedOptions.create,
            .flag("json", "Print a JSON summary on stdout at the end."),
        ] + SharedOptions.ice,
        notes: [
            "SIGINT and SIGTERM stop cleanly and finalize every file.",
            "If the connection drops (Janus restarts, the network fails), a line on stderr says so and agentd reconnects "
                + "(0.5 s doubling to 8 s, jittered, for up to 2 minutes), rejoins and subscribes to everyone again; with "
                + "--create it creates the room again. The recording goes on in the same directory on one timeline: WAVs "
                + "hold silence across the gap, WebMs go on (times jump over it), manifest.json lists it under \"gaps\", "
                + "and someone back with the same display name within a minute keeps their name and files.",
            "If reconnecting gives up, the files are finalized as far as they got, manifest.json says state \"failed\" "
                + "with the reason in \"error\" (the recording is shorter than asked), and the exit code is 4; "
                + "a token or pin refused while reconnecting exits 3.",
            "A progress line (elapsed, participants, MB written, kbps) goes to stderr when it is a terminal.",
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let plan = try RecordPlan(arguments)
        try plan.recording.checkOutput()
        let job = RoomRecordingJob(
            request: plan.recording, ice: try plan.ice(), loops: context.loops, stopName: "signal", say: context.standardError)
        let stopSignal = StopSignal()
        let signalWatch = Task {
            if await stopSignal.wait() != 0 { job.stop() }
        }
        let progress = Task { await RecordProgress(job: job).show() }
        defer {
            signalWatch.cancel()
            progress.cancel()
            stopSignal.cancel()
        }

        let outcome = try await job.run()
        progress.cancel()
        ProgressLine().finish()
        if let failure = outcome.outputFailure { throw failure }
        RecordSummary(outcome: outcome).print(json: plan.json, context: context)
        if let failure = outcome.connectionFailure { throw failure }
        return .ok
    }
}
