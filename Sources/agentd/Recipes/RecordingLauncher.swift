import Agent
import AgentdCore
import Foundation
import Recorder

/// The seam between the recorder recipe and the recording job: records `request` until `stop`
/// returns (or its duration passes), finalizes the files and says how it went. It throws
/// ``CommandFailure`` as `agentd record` does (3 refused, 4 connection, 5 output). Tests give
/// the runner their own.
typealias RecordingLauncher = @Sendable (_ request: RecordingRequest, _ ice: RoomJoinPatch, _ stop: @escaping @Sendable () async -> Void)
    async throws -> RecordingLaunchResult

/// What a recording run by a recipe reports back.
struct RecordingLaunchResult: Sendable, Equatable {
    /// "recorded 2 participant(s), 1.2 MB into DIR".
    var summary: String
    /// The recording's own end: "duration", "signal", ...
    var stoppedBy: String
}

/// The recorder recipe's recording: the same in-process ``RoomRecordingJob`` as `agentd record`.
enum RecipeRecording {
    /// A launcher that runs a ``RoomRecordingJob`` on `loops`; `say` gets its connection news.
    static func roomRecordingJob(loops: LoopGroup, say: @escaping @Sendable (String) -> Void) -> RecordingLauncher {
        { request, ice, stop in
            try request.checkOutput()
            let job = RoomRecordingJob(request: request, ice: ice, loops: loops, stopName: "signal", say: say)
            let watch = Task {
                await stop()
                if !Task.isCancelled { job.stop() }
            }
            defer { watch.cancel() }
            let outcome = try await job.run()
            if let failure = outcome.failure { throw failure }
            let summary = "recorded \(outcome.manifest.participants.count) participant(s), "
                + "\(ProgressLine.megabytes(outcome.progress.bytesWritten)) into \(request.directory.path)"
            return RecordingLaunchResult(summary: summary, stoppedBy: outcome.reason.summaryName)
        }
    }

    /// The recording `recipe` asks for. Without `outputRoot` (the CLI) `out` is used as given and
    /// the default is `./recordings/<room>-<UTC>/`; with one (the daemon) `out` must be a
    /// relative directory under it, as for `POST /v1/recordings`.
    static func request(for recipe: Recipe, server: String, room: String, outputRoot: String?,
                        startedAt: Date = Date()) throws -> RecordingRequest {
        let settings = recipe.record ?? Recipe.RecordSettings(formats: RecordingFormats.default.names, out: nil)
        let formats = try RecordingFormats(parsing: settings.formats.joined(separator: ","))
        let directory: RecordingDirectory
        let existing: RecordingDirectory.Existing = outputRoot == nil ? .refuseRecording : .refuse
        if let outputRoot {
            do {
                directory = try RecordingJobBody.directory(settings.out, room: room, root: outputRoot, startedAt: startedAt)
            } catch {
                throw CommandFailure(.usage, "$.record.out: \(error.message)")
            }
        } else {
            directory = settings.out.map { RecordingDirectory(path: $0) } ?? RecordingDirectory(room: room, startedAt: startedAt)
        }
        return RecordingRequest(
            server: server, room: room, display: recipe.display, credentials: RoomCredentials(token: recipe.token, pin: recipe.pin), create: recipe.create,
            duration: recipe.duration, limits: settings.limits, segments: settings.segments, notice: settings.notice, formats: formats,
            directory: directory, existing: existing, startedAt: startedAt, composite: settings.composite)
    }
}
