import Agent
import Foundation
import Recorder

/// `agentd replay CAPTURE`: plays what `agentd record --capture` took in through the receive
/// path again (jitter buffers, depacketizers, sender report mapping, the recorder), at full speed
/// or in real time, with scripted loss, reordering, duplication, jitter and clock drift, into a
/// new recording directory.
enum ReplayCommand: Command {
    static let spec = CommandSpec(
        name: "replay",
        summary: "Replay a capture (agentd record --capture) through the receive path into a new recording directory.",
        positionals: ["CAPTURE"],
        options: [
            .value("out", "DIR", "Recording directory. Default: ./recordings/replay-<UTC yyyyMMdd'T'HHmmss'Z'>/. "
                + "One that already holds a recording is refused (exit 5)."),
            .flag("overwrite", "Replay into an --out that holds a recording: its files of the same names are replaced."),
            .value("formats", "LIST", "As agentd record's (webm,wav,ogg,mix,data,composite,transcript). Default: webm,wav,data."),
            .value("loss", "PCT", "Lose this percentage of RTP packets (0 to 50). Default: 0."),
            .value("reorder", "PCT", "Hold this percentage of RTP packets back 5-40 ms, behind later ones (0 to 50). Default: 0."),
            .value("duplicate", "PCT", "Deliver this percentage of RTP packets twice (0 to 50). Default: 0."),
            .value("jitter", "MS", "Delay each packet by a random 0 to MS milliseconds (0 to 10000). Default: 0."),
            .value("video-drift", "PCT", "Video senders' clocks run this much fast (negative: slow) against audio's, "
                + "-10 to 10; their sender reports say so, as a real sender's would. Default: 0."),
            .value("seed", "N", "Seed of the impairments: the same seed, the same packets lost. Default: 1."),
            .flag("realtime", "Take as long as the capture did (default: as fast as the receive path goes)."),
            .flag("json", "Print a JSON summary on stdout at the end."),
        ],
        notes: [
            "CAPTURE is a directory holding capture.rtpdump and capture.json (agentd record --capture writes them beside its recording).",
            "Sender reports are never lost. The recording's t=0 is the capture's start.",
            "Exit 2 for a bad option or a CAPTURE that is not one, 5 when --out cannot be written.",
            SharedOptions.exitCodeNote,
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let plan = try ReplayPlan(arguments)
        let session: CapturedSession
        do {
            session = try CapturedSession.load(directory: plan.capture)
        } catch {
            throw CommandFailure(.usage, "\(plan.capture): \(error)", hint: "give a directory that agentd record --capture wrote")
        }
        let directory = plan.out.map { RecordingDirectory(path: $0) } ?? RecordingDirectory(room: "replay", startedAt: Date())
        do {
            _ = try directory.prepare(existing: plan.overwrite ? .overwrite : .refuseRecording)
        } catch {
            throw CommandFailure(.outputFailed, "cannot write to \(directory.path): \(error)", hint: "choose another --out")
        }
        let recorder: RoomRecorder
        do {
            recorder = try RoomRecorder(directory: directory, room: "replay", server: "replay:" + plan.capture, formats: plan.formats,
                                        startedAt: session.startedAt)
        } catch {
            throw CommandFailure(.outputFailed, error.description, hint: "choose another --out")
        }
        let recording = RTPReplay(session: session, impairments: plan.impairments) { recorder.submit($0) }
        let stopSignal = StopSignal()
        let stopped = Shared(false)
        let signalWatch = Task {
            if await stopSignal.wait() != 0 { stopped.withLock { $0 = true } }
        }
        defer {
            signalWatch.cancel()
            stopSignal.cancel()
        }
        let counters = try await recording.run(realTime: plan.realTime, pause: { await recorder.drained() },
                                               isCancelled: { stopped.withLock { $0 } })
        let endedAt = session.startedAt.addingTimeInterval(Double(recording.duration.totalNanoseconds) / 1e9)
        let manifest = await recorder.stop(endedAt: endedAt, stoppedBy: stopped.withLock { $0 } ? "signal" : "end")
        if let error = recorder.outputError {
            throw CommandFailure(.outputFailed, error.description, hint: "check the directory's permissions and free space")
        }
        ReplaySummary(directory: directory.path, counters: counters, manifest: manifest, eventsDropped: recorder.eventsDropped)
            .print(json: plan.json, context: context)
        return .ok
    }
}
