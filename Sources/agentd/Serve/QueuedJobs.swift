import Agent
import AgentdCore
import Foundation
import JobQueue

/// `agentd serve --redis`: the API's jobs live in the Redis queue, not in this process. A
/// submit checks the request as the daemon would and queues it (a worker runs it); reads come
/// from Redis, so any API node answers for any job; a DELETE raises the job's stop flag, which
/// its worker sees within a second.
struct QueuedJobs: Sendable {
    let queue: JobQueue
    let settings: ServeSettings

    /// Queues a recording. Its directory is named now (the default one from the room and this
    /// moment) and stored relative to the output root, for the worker to find under its own.
    func submitRecording(_ body: JSONValue, id: String?) async throws(APIError) -> HTTPResponse {
        let request = try RecordingJobBody.request(body, settings: settings)
        var stored = body.objectValue ?? [:]
        stored["out"] = .string(Self.relative(request.directory.path, to: settings.outputRoot))
        return try await submit(.recording, id: id, body: .object(stored), details: RecordingJobWork.details(request))
    }

    /// Queues a bot whose request `check` made into work here (so a bad recipe is a 400 now);
    /// that work is not run: a worker makes its own.
    func submitBot(_ body: JSONValue, id: String?, details: [String: JSONValue]) async throws(APIError) -> HTTPResponse {
        try await submit(.bot, id: id, body: body, details: details)
    }

    private func submit(_ kind: JobKind, id: String?, body: JSONValue, details: [String: JSONValue]) async throws(APIError) -> HTTPResponse {
        let id = id ?? JobSubmission.newID()
        let submitted: (created: Bool, kind: String)
        do {
            submitted = try await queue.submit(id: id, kind: kind.rawValue, body: body.serialized(), details: JSONValue.object(details).serialized())
        } catch {
            throw Self.unavailable(error)
        }
        guard submitted.kind == kind.rawValue else {
            throw APIError(status: 409, message: "job \(id) exists already, as a \(submitted.kind) job")
        }
        guard let job = try await job(id) else { throw APIError(status: 500, message: "job \(id) vanished after it was queued") }
        return .json(submitted.created ? 201 : 200, job)
    }

    func job(_ id: String) async throws(APIError) -> JSONValue? {
        guard JobID.isValid(id) else { return nil }
        do {
            return try await queue.job(id).map(QueuedJobView.json)
        } catch {
            throw Self.unavailable(error)
        }
    }

    /// The newest jobs, oldest first (as the daemon lists its own).
    func list() async throws(APIError) -> [JSONValue] {
        do {
            return try await queue.list(limit: 200).reversed().map(QueuedJobView.json)
        } catch {
            throw Self.unavailable(error)
        }
    }

    func stop(_ id: String) async throws(APIError) -> JSONValue? {
        guard JobID.isValid(id) else { return nil }
        do {
            guard try await queue.stop(id) != nil else { return nil }
        } catch {
            throw Self.unavailable(error)
        }
        return try await job(id)
    }

    /// Whether Redis answers now.
    func redisAnswers() async -> Bool {
        (try? await queue.client.command(["PING"])) != nil
    }

    /// /metrics lines of the queue: Redis up, jobs waiting or held, dead letters.
    func metrics() async -> String {
        var page = MetricsText()
        let up = await redisAnswers()
        page.add("agentd_redis_up", .gauge, help: "1 when Redis answered this scrape's PING.", up ? 1 : 0)
        if up {
            let length = (try? await queue.client.command(["XLEN", queue.keys.stream]))?.integer ?? 0
            let dead = (try? await queue.client.command(["XLEN", queue.keys.deadLetters]))?.integer ?? 0
            page.add("agentd_queue_entries", .gauge, help: "Jobs in the stream: waiting for a worker or held by one.", Double(length))
            page.add("agentd_queue_dead_letters", .gauge, help: "Entries in the dead-letter stream.", Double(dead))
        }
        return page.text
    }

    static func unavailable(_ error: JobQueueError) -> APIError {
        APIError(status: 503, message: "the job queue is unavailable: \(error)")
    }

    /// `path` under `root` as a relative path (the directory's own name when it is not under it).
    static func relative(_ path: String, to root: String) -> String {
        let base = root.hasSuffix("/") ? root : root + "/"
        if path.hasPrefix(base), path.count > base.count { return String(path.dropFirst(base.count)) }
        return (path as NSString).lastPathComponent
    }
}
