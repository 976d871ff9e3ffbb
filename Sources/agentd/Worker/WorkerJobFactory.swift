import Agent
import AgentdCore
import Foundation
import JobQueue
import Recorder

/// Turns a claimed job's body into its work, as the daemon would for the same request: a
/// recording (whose directory is the one the API node named, under this worker's output root)
/// or a bot. A job claimed before by another worker continues its recording in that directory.
struct WorkerJobFactory: Sendable {
    let settings: ServeSettings
    let loops: LoopGroup
    let botFactory: BotJobFactory
    let log: ServeLog

    /// The work, and whether it composites (a cost of its own).
    func work(for claim: JobClaim, mayWrite: @escaping @Sendable () -> Bool) throws(APIError) -> (work: any JobWork, composite: Bool) {
        let body: JSONValue
        do {
            body = try JSONValue(parsing: claim.body)
        } catch {
            throw .badRequest("the job's body is not JSON: \(error)")
        }
        switch claim.kind {
        case JobKind.recording.rawValue:
            var recording = try RecordingJobBody.request(body, settings: settings, existing: Self.existing(for: claim))
            recording.writeGate = mayWrite
            recording.durationFromRecordingStart = true
            log.redact(recording.credentials.token)
            log.redact(recording.credentials.pin)
            log.redact(JanusURL.credentials(recording.server))
            do {
                try recording.prepareOutput()
            } catch {
                throw RecordingJobBody.outputError(error, out: body["out"]?.stringValue)
            }
            let (log, room) = (self.log, recording.room)
            let job = RoomRecordingJob(request: recording, ice: settings.ice, loops: loops) { line in log.info(line, ["room": room, "job": claim.id]) }
            return (RecordingJobWork(job: job), recording.formats.contains(.composite))
        case JobKind.bot.rawValue:
            let request = try BotJobBody.request(body, settings: settings)
            log.redact(request.join.credentials.token)
            log.redact(request.join.credentials.pin)
            log.redact(request.join.server.flatMap(JanusURL.credentials))
            do {
                return (try botFactory(request), false)
            } catch {
                throw APIError(status: error.status, message: error.message)
            }
        default:
            throw .badRequest("no such job kind \(claim.kind.prefix(32))")
        }
    }

    /// The first hold makes the directory (it must not exist); a later one (a reclaim, or a
    /// job another worker released) continues the recording in it.
    static func existing(for claim: JobClaim) -> RecordingDirectory.Existing {
        claim.fence > 1 ? .continueRecording : .refuse
    }
}
