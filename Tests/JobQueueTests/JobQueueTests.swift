import Foundation
import JobQueue
import TestSupport
import Testing

/// The queue's scripts against a real redis-server: submit, claim, heartbeat, finish, stop,
/// fencing, reclaiming a lapsed lease, and dead letters.
@Suite("JobQueue", .enabled(if: JobQueueRedis.shouldRun), .serialized)
struct JobQueueTests {
    @Test("a second submit of an id creates nothing; the job waits queued and is delivered once")
    func submitIsIdempotent() async throws {
        let redis = try await JobQueueRedis()
        defer { redis.stop() }
        let queue = redis.queue
        let first = try await queue.submit(id: "job-1", kind: "recording", body: #"{"room":"r"}"#, details: "{}")
        let again = try await queue.submit(id: "job-1", kind: "recording", body: #"{"room":"other"}"#, details: "{}")
        #expect(first.created && !again.created && again.kind == "recording")
        let job = try #require(try await queue.job("job-1"))
        #expect(job.state == .queued && job.body == #"{"room":"r"}"# && job.attempts == 0)
        #expect(try await redis.server.command(["XLEN", queue.keys.stream]) == "1")
        let entry = try #require(try await queue.nextEntry(consumer: "w1", block: .milliseconds(100)))
        #expect(entry.id == "job-1")
        #expect(try await queue.nextEntry(consumer: "w2", block: .milliseconds(100)) == nil, "delivered once")
        #expect(try await queue.job("missing") == nil)
    }

    @Test("claim, heartbeat with progress, stop flag, finish: the job ends done and its entry is gone")
    func lifeOfAJob() async throws {
        let redis = try await JobQueueRedis()
        defer { redis.stop() }
        let queue = redis.queue
        _ = try await queue.submit(id: "a", kind: "bot", body: "{}", details: "{}")
        let entry = try #require(try await queue.nextEntry(consumer: "w1", block: .milliseconds(100)))
        guard case .claimed(let claim) = try await queue.claim(id: entry.id, entry: entry.entry, worker: "w1", lease: .seconds(15), maxAttempts: 3, reclaiming: false) else {
            Issue.record("not claimed")
            return
        }
        #expect(claim.fence == 1 && claim.attempt == 1 && claim.kind == "bot" && !claim.reclaimed)
        #expect(try await queue.job("a")?.state == .claimed)
        #expect(try await queue.renew(claim, worker: "w1", lease: .seconds(15), progress: #"{"participants":2}"#, started: true) == .held(stopRequested: false))
        let running = try #require(try await queue.job("a"))
        #expect(running.state == .running && running.worker == "w1" && running.progress == #"{"participants":2}"#)
        #expect(try await queue.stop("a") == .stopping)
        #expect(try await queue.stopRequested("a"))
        #expect(try await queue.renew(claim, worker: "w1", lease: .seconds(15), progress: "{}", started: true) == .held(stopRequested: true))
        #expect(try await queue.finish(claim, .done, result: #"{"stopped_by":"api"}"#, maxAttempts: 3) == .done)
        let ended = try #require(try await queue.job("a"))
        #expect(ended.state == .done && ended.result == #"{"stopped_by":"api"}"# && ended.endedMs != nil)
        #expect(try await redis.server.command(["XLEN", queue.keys.stream]) == "0")
        #expect(try await redis.server.command(["XPENDING", queue.keys.stream, "workers"]).hasPrefix("0"))
        #expect(try await queue.list().map(\.id) == ["a"])
    }

    @Test("a lapsed lease is reclaimed by another worker with a higher fence; the old holder's writes are refused")
    func fencingAfterALapsedLease() async throws {
        let redis = try await JobQueueRedis()
        defer { redis.stop() }
        let one = redis.queue
        let two = redis.peer("two")
        _ = try await one.submit(id: "rec", kind: "recording", body: "{}", details: "{}")
        let entry = try #require(try await one.nextEntry(consumer: "w1", block: .milliseconds(100)))
        // A claim that comes well after the delivery (a busy worker): the entry's idle time must
        // count from the claim, or it is found lapsed while the lease still holds (a CI run's
        // "not reclaimed").
        try await Task.sleep(for: .milliseconds(400))
        guard case .claimed(let first) = try await one.claim(id: entry.id, entry: entry.entry, worker: "w1", lease: .seconds(1), maxAttempts: 3, reclaiming: false) else {
            Issue.record("not claimed")
            return
        }
        // While the lease holds, the entry is not lapsed (and would not be taken if it were found).
        #expect(try await two.lapsedEntry(consumer: "w2", idle: .seconds(1)) == nil)
        // The holder stops renewing: the entry idles past the lease.
        var lapsed: (id: String, entry: String)?
        try await pollUntil(timeout: .seconds(10), "the entry to lapse") {
            lapsed = try? await two.lapsedEntry(consumer: "w2", idle: .seconds(1))
            return lapsed != nil
        }
        let found = try #require(lapsed)
        guard case .claimed(let second) = try await two.claim(id: found.id, entry: found.entry, worker: "w2", lease: .seconds(15), maxAttempts: 3, reclaiming: true) else {
            Issue.record("not reclaimed")
            return
        }
        #expect(second.fence == 2 && second.attempt == 2 && second.reclaimed && second.previousWorker == "w1")
        #expect(try await one.renew(first, worker: "w1", lease: .seconds(15), progress: "{}", started: true) == .fenced)
        #expect(try await one.finish(first, .done, maxAttempts: 3) == nil)
        #expect(try await two.renew(second, worker: "w2", lease: .seconds(15), progress: "{}", started: true) == .held(stopRequested: false))
        let job = try #require(try await two.job("rec"))
        #expect(job.worker == "w2" && job.reclaims == 1 && job.state == .running)
    }

    @Test("a job that fails on every try goes to the dead-letter stream after its attempts, with its last error")
    func deadLetters() async throws {
        let redis = try await JobQueueRedis()
        defer { redis.stop() }
        let queue = redis.queue
        _ = try await queue.submit(id: "poison", kind: "recording", body: "{}", details: "{}")
        var states: [QueuedJob.State?] = []
        for attempt in 1...3 {
            let entry = try #require(try await queue.nextEntry(consumer: "w1", block: .milliseconds(500)), "try \(attempt)")
            guard case .claimed(let claim) = try await queue.claim(id: entry.id, entry: entry.entry, worker: "w1", lease: .seconds(15), maxAttempts: 3, reclaiming: false) else {
                Issue.record("try \(attempt) not claimed")
                return
            }
            #expect(claim.attempt == attempt)
            states.append(try await queue.finish(claim, .retry, error: "room 9 does not exist (try \(attempt))", maxAttempts: 3))
        }
        #expect(states == [.queued, .queued, .failed])
        let job = try #require(try await queue.job("poison"))
        #expect(job.state == .failed && job.deadLettered && job.error == "room 9 does not exist (try 3)" && job.attempts == 3)
        #expect(try await queue.deadLetters().map(\.id) == ["poison"])
        #expect(try await queue.deadLetters().first?.attempts == 3)
        #expect(try await queue.nextEntry(consumer: "w1", block: .milliseconds(100)) == nil)
        #expect(try await redis.server.command(["XLEN", queue.keys.stream]) == "0")
    }

    @Test("stopping a queued job ends it at once; its entry is skipped by the worker that read it")
    func stopQueued() async throws {
        let redis = try await JobQueueRedis()
        defer { redis.stop() }
        let queue = redis.queue
        _ = try await queue.submit(id: "q", kind: "bot", body: "{}", details: "{}")
        _ = try await queue.submit(id: "r", kind: "bot", body: "{}", details: "{}")
        let entry = try #require(try await queue.nextEntry(consumer: "w1", block: .milliseconds(100)))
        #expect(entry.id == "q")
        #expect(try await queue.stop("q") == .done)
        #expect(try await queue.claim(id: entry.id, entry: entry.entry, worker: "w1", lease: .seconds(15), maxAttempts: 3, reclaiming: false) == .skipped("stale entry"))
        #expect(try await queue.job("q")?.state == .done)
        #expect(try await queue.stop("nope") == nil)
        // A release puts a job back without counting the attempt.
        let next = try #require(try await queue.nextEntry(consumer: "w1", block: .milliseconds(100)))
        guard case .claimed(let claim) = try await queue.claim(id: next.id, entry: next.entry, worker: "w1", lease: .seconds(15), maxAttempts: 3, reclaiming: false) else {
            Issue.record("not claimed")
            return
        }
        #expect(try await queue.finish(claim, .release, maxAttempts: 3) == .queued)
        #expect(try await queue.job("r")?.attempts == 0)
        #expect(try await queue.nextEntry(consumer: "w2", block: .milliseconds(100))?.id == "r")
    }

    @Test("Redis restarted: calls fail meanwhile, then the client reconnects and every job is still there")
    func survivesARestart() async throws {
        let redis = try await JobQueueRedis()
        defer { redis.stop() }
        let queue = redis.queue
        _ = try await queue.submit(id: "keep", kind: "bot", body: "{}", details: "{}")
        #expect(queue.client.isUp)
        await redis.server.kill()
        await #expect(throws: JobQueueError.self) { _ = try await queue.job("keep") }
        #expect(!queue.client.isUp)
        try await redis.server.start()
        try await pollUntil(timeout: .seconds(15), "the client to reconnect") { (try? await queue.job("keep")) != nil }
        #expect(queue.client.isUp)
        #expect(try await queue.job("keep")?.state == .queued)
    }
}
