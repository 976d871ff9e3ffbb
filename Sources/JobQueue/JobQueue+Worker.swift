/// The worker's side of the queue: new entries, lapsed ones, and the claim's life.
extension JobQueue {
    /// The next new entry for `consumer`, waiting up to `block` (keep it under the client's
    /// timeout); nil when none came.
    public func nextEntry(consumer: String, block: Duration) async throws(JobQueueError) -> (id: String, entry: String)? {
        let milliseconds = max(1, Int(block.components.seconds * 1000 + block.components.attoseconds / 1_000_000_000_000_000))
        let reply = try await command([
            "XREADGROUP", "GROUP", JobQueueKeys.group, consumer, "COUNT", "1", "BLOCK", String(milliseconds), "STREAMS", keys.stream, ">",
        ])
        guard let streams = reply.array, let stream = streams.first?.array, stream.count == 2 else { return nil }
        return stream[1].array?.first.flatMap(Self.entry)
    }

    /// An entry whose holder has not renewed for `idle` (a lapsed lease), moved to `consumer`.
    public func lapsedEntry(consumer: String, idle: Duration) async throws(JobQueueError) -> (id: String, entry: String)? {
        let milliseconds = max(1, Int(idle.components.seconds * 1000))
        let reply = try await command(["XAUTOCLAIM", keys.stream, JobQueueKeys.group, consumer, String(milliseconds), "0-0", "COUNT", "1"])
        guard let parts = reply.array, parts.count >= 2 else { return nil }
        return parts[1].array?.lazy.compactMap(Self.entry).first
    }

    private static func entry(_ value: RedisValue) -> (id: String, entry: String)? {
        guard let parts = value.array, parts.count == 2, let entry = parts[0].text, let id = parts[1].fields?["id"], JobID.isValid(id) else {
            return nil
        }
        return (id, entry)
    }

    public func claim(id: String, entry: String, worker: String, lease: Duration, maxAttempts: Int, reclaiming: Bool) async throws(JobQueueError) -> ClaimOutcome {
        let reply = try await run(JobQueueScripts.claim, [keys.job(id), keys.stream, keys.deadLetters],
                                  [id, entry, worker, String(lease.components.seconds * 1000), String(maxAttempts), reclaiming ? "1" : "0"])
        guard let items = reply.array, let word = items.first?.text else { throw .malformedJob("claim answered \(reply)") }
        switch word {
        case "claimed":
            guard items.count == 6, let fence = items[1].integer, let attempt = items[2].integer, let kind = items[3].text, let body = items[4].text else {
                throw .malformedJob("claim answered \(items.count) items")
            }
            let previous = items[5].text.flatMap { $0.isEmpty ? nil : $0 }
            return .claimed(JobClaim(id: id, entry: entry, fence: fence, attempt: Int(clamping: attempt), kind: kind, body: body,
                                     previousWorker: previous, reclaimed: reclaiming))
        case "dead":
            return .deadLettered(id: id, error: items.count > 1 ? items[1].text ?? "" : "")
        default:
            return .skipped(items.count > 1 ? items[1].text ?? word : word)
        }
    }

    public func renew(_ claim: JobClaim, worker: String, lease: Duration, progress: String, started: Bool) async throws(JobQueueError) -> RenewOutcome {
        let reply = try await run(JobQueueScripts.renew, [keys.job(claim.id), keys.stream],
                                  [String(claim.fence), worker, String(lease.components.seconds * 1000), progress, started ? "1" : "0"])
        guard let items = reply.array, let word = items.first?.text else { throw .malformedJob("renew answered \(reply)") }
        if word == "fenced" { return .fenced }
        return .held(stopRequested: items.count > 1 && items[1].text == "1")
    }

    /// Ends the hold. Returns the job's state after it, or nil when the hold was fenced.
    public func finish(_ claim: JobClaim, _ outcome: FinishOutcome, result: String = "", error: String = "", maxAttempts: Int) async throws(JobQueueError) -> QueuedJob.State? {
        let reply = try await run(JobQueueScripts.finish, [keys.job(claim.id), keys.stream, keys.deadLetters],
                                  [String(claim.fence), outcome.rawValue, result, error, String(maxAttempts), String(retentionSeconds)])
        guard let word = reply.array?.first?.text else { throw .malformedJob("finish answered \(reply)") }
        return word == "fenced" ? nil : QueuedJob.State(rawValue: word)
    }

    /// Is the stop flag up? (the holder's quick check between heartbeats)
    public func stopRequested(_ id: String) async throws(JobQueueError) -> Bool {
        try await command(["HGET", keys.job(id), "stop"]).text == "1"
    }

    /// A worker's report for the API's worker list and its own record.
    public func report(worker: String, json: String) async throws(JobQueueError) {
        _ = try await command(["HSET", keys.workers, worker, json])
    }
}
