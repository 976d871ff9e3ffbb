import Agent
import AgentdCore

/// A recording as a daemon job: a ``RoomRecordingJob`` whose stop comes from the job's
/// ``StopRequest`` and whose failures (refused, unreachable, output, connection given up) end
/// the job `failed`.
struct RecordingJobWork: JobWork {
    let job: RoomRecordingJob

    func run(until stop: StopRequest) async throws -> [String: JSONValue] {
        let job = self.job
        let watch = Task {
            if await stop.wait() { job.stop() }
        }
        defer { watch.cancel() }
        let outcome: RecordingOutcome
        do {
            outcome = try await job.run()
        } catch {
            throw JobFailure(description: error.what)
        }
        if let failure = outcome.failure { throw JobFailure(description: failure.what) }
        return ["stopped_by": .string(outcome.reason.name)]
    }

    var progress: JobProgress {
        let recorder = job.progress
        return JobProgress(
            started: job.isRecording, participants: recorder.participantsPresent, bytesWritten: recorder.bytesWritten,
            received: job.totals.counters, writerDrops: recorder.eventsDropped, events: job.eventCounts)
    }

    var details: [String: JSONValue] { Self.details(job.request) }

    /// What a job shows of its request (never a secret): also what an API node stores with a
    /// queued job, before any worker made it.
    static func details(_ request: RecordingRequest) -> [String: JSONValue] {
        var details: [String: JSONValue] = [
            "out": .string(request.directory.path), "room": .string(request.room), "server": .string(request.displayServer),
            "display": .string(request.display), "formats": .array(request.formats.names.map { .string($0) }),
            "create": .bool(request.create),
        ]
        if let duration = request.duration { details["duration"] = .double(duration) }
        if request.formats.contains(.composite) {
            let composite = request.composite
            details["composite"] = .object(["size": .string(composite.sizeText), "fps": .integer(Int64(composite.framesPerSecond)),
                                            "layout": .string(composite.layout.rawValue)])
        }
        return details
    }
}
