/// The job queue on Redis Streams: what API nodes (submit, read, stop) and workers (claim,
/// renew, finish, reclaim) do, each step one atomic script (``JobQueueScripts``).
public struct JobQueue: Sendable {
    public let client: RedisClient
    public let keys: JobQueueKeys
    /// How long an ended job stays readable.
    public var retentionSeconds = 7 * 86_400
    /// Ids kept in the index for listing.
    public var indexCap = 10_000

    public init(client: RedisClient, keys: JobQueueKeys) {
        self.client = client
        self.keys = keys
    }

    /// Makes the stream and its consumer group if they are missing (from the stream's start, so
    /// jobs submitted before any worker ran are delivered).
    public func prepare() async throws(JobQueueError) {
        do {
            _ = try await client.command(["XGROUP", "CREATE", keys.stream, JobQueueKeys.group, "0", "MKSTREAM"])
        } catch .command(let line) where line.hasPrefix("BUSYGROUP") {
        } catch {
            throw .redis(error)
        }
    }

    /// Queues a job unless one with `id` exists. Returns whether it was created and the kind
    /// of the job under that id.
    public func submit(id: String, kind: String, body: String, details: String) async throws(JobQueueError) -> (created: Bool, kind: String) {
        let reply = try await run(JobQueueScripts.submit, [keys.job(id), keys.stream, keys.index], [id, kind, body, details])
        guard let items = reply.array, items.count == 2, let created = items[0].integer, let existing = items[1].text else {
            throw .malformedJob("submit answered \(reply)")
        }
        return (created == 1, existing)
    }

    public func job(_ id: String) async throws(JobQueueError) -> QueuedJob? {
        let reply = try await command(["HGETALL", keys.job(id)])
        guard let fields = reply.fields else { throw .malformedJob("HGETALL answered \(reply)") }
        return fields.isEmpty ? nil : try QueuedJob(fields: fields)
    }

    /// The newest `limit` jobs, newest first; hashes that are not jobs are left out.
    public func list(limit: Int = 200) async throws(JobQueueError) -> [QueuedJob] {
        let reply = try await run(JobQueueScripts.list, [keys.index, keys.jobPrefix], [String(max(1, limit)), String(indexCap)])
        return (reply.array ?? []).compactMap { item in item.fields.flatMap { try? QueuedJob(fields: $0) } }
    }

    /// DELETE: the job's state after the request, nil when there is no such job.
    public func stop(_ id: String) async throws(JobQueueError) -> QueuedJob.State? {
        let reply = try await run(JobQueueScripts.stop, [keys.job(id), keys.stream], [])
        guard let word = reply.array?.first?.text else { throw .malformedJob("stop answered \(reply)") }
        return word == "missing" ? nil : QueuedJob.State(rawValue: word)
    }

    /// The newest dead letters, newest first.
    public func deadLetters(count: Int = 100) async throws(JobQueueError) -> [DeadLetter] {
        let reply = try await command(["XREVRANGE", keys.deadLetters, "+", "-", "COUNT", String(max(1, count))])
        return (reply.array ?? []).compactMap { item in
            guard let parts = item.array, parts.count == 2, let entry = parts[0].text, let fields = parts[1].fields, let id = fields["id"] else { return nil }
            return DeadLetter(entry: entry, id: id, error: fields["error"] ?? "", attempts: fields["attempts"].flatMap { Int($0) } ?? 0)
        }
    }

    func run(_ script: RedisScript, _ keys: [String], _ arguments: [String]) async throws(JobQueueError) -> RedisValue {
        do {
            return try await client.evaluate(script, keys: keys, arguments: arguments)
        } catch {
            throw .redis(error)
        }
    }

    func command(_ arguments: [String]) async throws(JobQueueError) -> RedisValue {
        do {
            return try await client.command(arguments)
        } catch {
            throw .redis(error)
        }
    }
}
