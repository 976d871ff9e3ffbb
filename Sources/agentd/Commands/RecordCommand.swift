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
            .value("out", "DIR", "Recording directory. Default: ./recordings/<room>-<UTC yyyyMMdd'T'HHmmss'Z'>/."),
            SharedOptions.duration,
            .value("formats", "LIST", "Any of webm,wav,ogg,mix,data. Default: webm,wav,data."),
            SharedOptions.create,
            .flag("json", "Print a JSON summary on stdout at the end."),
            SharedOptions.iceAllow,
        ],
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
        try plan.checkOutput()
        let addresses = try plan.iceAddresses()

        let recorder: RoomRecorder
        do {
            recorder = try RoomRecorder(
                directory: plan.directory, room: plan.room, server: plan.server, formats: plan.formats, startedAt: plan.startedAt)
        } catch {
            throw CommandFailure(.outputFailed, error.description, hint: "choose another --out")
        }
        // One channel on one transport loop; every room event goes to the recorder where it
        // happens (frames on the loop), with no hop per frame.
        let engine = AgentEngine(loopCount: 1)
        let connection = ConnectionWatch(startedAt: plan.startedAt, say: context.standardError)
        let options = ChannelOptions(
            display: plan.display, pin: plan.pin, create: plan.create, iceAddresses: addresses,
            roomEventSink: { event in
                recorder.submit(event)
                connection.note(event)
            })
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }

        let channel: Channel
        do {
            channel = try await engine.join(server: plan.server, room: plan.room, token: plan.token, options: options)
        } catch {
            await engine.shutdown()
            _ = await recorder.stop(endedAt: Date())
            plan.removeDirectoryIfUnused()
            throw JanusFailure.failure(for: error, server: plan.server, room: plan.room)
        }

        let reason = await RecordSession(recorder: recorder, plan: plan, stopSignal: stopSignal, connection: connection).waitForEnd()
        // The recording ends now; leaving the room takes a moment and is not part of it.
        let endedAt = Date()
        recorder.endIntake()
        await engine.leave(channel)
        await engine.shutdown()
        let manifest = await recorder.stop(endedAt: endedAt)
        ProgressLine().finish()
        if let outputError = recorder.outputError {
            throw CommandFailure(.outputFailed, outputError.description, hint: "files so far are in \(plan.directory.path)")
        }
        RecordSummary(plan: plan, manifest: manifest, recorder: recorder, reason: reason).print(json: plan.json, context: context)
        switch reason {
        case .disconnected(.gaveUp(let why)):
            throw CommandFailure(.connectionFailed, "lost the connection to Janus and gave up reconnecting: \(why)",
                                 hint: "the recording so far is in \(plan.directory.path)")
        case .disconnected(.refused(let why)):
            throw CommandFailure(.refused, "Janus refused us while reconnecting: \(why)",
                                 hint: "the recording so far is in \(plan.directory.path)")
        default:
            return .ok
        }
    }
}
