import Agent
import AgentdCore
import Foundation
import JobQueue
import Synchronization

/// `agentd worker`: takes jobs from the Redis queue while it has room, runs them on the
/// process's engine, heartbeats their leases, takes over jobs whose worker's lease lapsed, and
/// gives its jobs back to the queue when it shuts down.
///
/// Two Redis clients: `reader` blocks on the stream for new jobs, `control` carries claims,
/// heartbeats and ends, so a heartbeat never waits behind a blocking read.
actor Worker {
    let settings: WorkerSettings
    let reader: JobQueue
    let control: JobQueue
    let factory: WorkerJobFactory
    let log: ServeLog
    private(set) var capacity: WorkerCapacity
    private(set) var metrics = WorkerMetrics()
    private var held: [String: HeldJob] = [:]
    private var accepting = true
    private var lastReap = ContinuousClock.now - .seconds(3600)
    /// When a call to Redis last failed. After an outage no lease was renewable, so none is
    /// taken over until Redis has answered for a whole lease: the holders renew first.
    private var lastRedisFailure = ContinuousClock.now - .seconds(3600)
    private var ended = JobMetrics()

    init(settings: WorkerSettings, reader: JobQueue, control: JobQueue, factory: WorkerJobFactory, log: ServeLog) {
        self.settings = settings
        self.reader = reader
        self.control = control
        self.factory = factory
        self.log = log
        capacity = WorkerCapacity(capacity: settings.capacity)
    }

    /// Claims and runs jobs until ``shutdown()``.
    func run() async {
        let leases = Task { await self.keepLeases() }
        defer { leases.cancel() }
        var waitingForRoom = false
        while accepting {
            do {
                try await control.prepare()
                break
            } catch {
                log.warn("cannot prepare the queue; retrying", ["error": error.description])
                try? await Task.sleep(for: .seconds(1))
            }
        }
        while accepting {
            guard capacity.fits(settings.costs.cheapest), !waitingForRoom || capacity.held == 0 || capacityChanged() else {
                try? await Task.sleep(for: .milliseconds(200))
                continue
            }
            waitingForRoom = false
            do {
                guard let (entry, reclaiming) = try await nextEntry() else { continue }
                guard accepting else { break }
                let outcome = try await control.claim(id: entry.id, entry: entry.entry, worker: settings.name, lease: settings.lease,
                                                      maxAttempts: settings.maxAttempts, reclaiming: reclaiming)
                switch outcome {
                case .claimed(let claim):
                    waitingForRoom = !(await start(claim))
                case .deadLettered(let id, let error):
                    metrics.deadLettered += 1
                    log.warn("job dead-lettered", ["id": id, "error": error])
                case .skipped:
                    break
                }
            } catch {
                lastRedisFailure = .now
                log.warn("the queue is unreachable; retrying", ["error": error.description])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private var usedAtRelease = 0.0
    /// After a job was released for want of room, the next read waits for some to free.
    private func capacityChanged() -> Bool { capacity.used < usedAtRelease - 1e-9 }

    /// A lapsed lease first (once per `reapEvery`), else a new entry (blocking up to `block`).
    private func nextEntry() async throws(JobQueueError) -> (entry: (id: String, entry: String), reclaiming: Bool)? {
        if ContinuousClock.now - lastReap >= settings.reapEvery, ContinuousClock.now - lastRedisFailure >= settings.lease {
            lastReap = .now
            if let lapsed = try await control.lapsedEntry(consumer: settings.name, idle: settings.lease) {
                return (lapsed, true)
            }
        }
        return try await reader.nextEntry(consumer: settings.name, block: settings.block).map { ($0, false) }
    }

    /// Starts a claimed job; false when it did not fit and went back to the queue.
    private func start(_ claim: JobClaim) async -> Bool {
        metrics.claimed += 1
        if claim.reclaimed { metrics.reclaimed += 1 }
        let holder = HeldJobGate()
        let made: (work: any JobWork, composite: Bool)
        do {
            made = try factory.work(for: claim, mayWrite: { holder.mayWrite })
        } catch {
            log.warn("job refused", ["id": claim.id, "error": error.message])
            await end(claim, .failed, error: error.message)
            return true
        }
        let cost = settings.costs.cost(kind: claim.kind, composite: made.composite)
        guard capacity.fits(cost) else {
            usedAtRelease = capacity.used
            metrics.released += 1
            await end(claim, .release)
            return false
        }
        let record = JobRecord(id: claim.id, kind: JobKind(rawValue: claim.kind) ?? .bot, createdAt: Date(), work: made.work)
        let job = HeldJob(claim: claim, record: record, composite: made.composite, lease: settings.lease)
        holder.attach(job)
        held[claim.id] = job
        capacity.hold(claim.id, cost: cost)
        log.info("job claimed", ["id": claim.id, "kind": claim.kind, "attempt": String(claim.attempt),
                                 "reclaimed": claim.reclaimed ? "yes" : "no", "previous_worker": claim.previousWorker ?? "-"])
        let stop = record.stop
        let work = made.work
        job.task.withLock {
            $0 = Task {
                let ending: Result<[String: JSONValue], Error>
                do {
                    ending = .success(try await work.run(until: stop))
                } catch {
                    ending = .failure(error)
                }
                await self.finished(job, ending)
            }
        }
        return true
    }

    private func finished(_ job: HeldJob, _ ending: Result<[String: JSONValue], Error>) async {
        ended.noteEnded(job.record.work.progress)
        if job.isFenced {
            log.warn("job ended after another worker took it; nothing of it is written", ["id": job.id])
        } else {
            switch ending {
            case .success(let result) where job.isReleasing && result["stopped_by"]?.stringValue != "duration":
                metrics.released += 1
                await end(job.claim, .release)
            case .success(let result):
                await end(job.claim, .done, result: JSONValue.object(result).serialized())
            case .failure(let error):
                await end(job.claim, .retry, error: ErrorText.describe(error))
            }
        }
        held[job.id] = nil
        capacity.release(job.id)
    }

    /// Ends the hold in Redis; while Redis is away it tries again each second (for up to 10
    /// minutes, then the lease lapses and another worker takes the job over).
    private func end(_ claim: JobClaim, _ outcome: FinishOutcome, result: String = "", error: String = "") async {
        let deadline = ContinuousClock.now + .seconds(600)
        while true {
            do {
                let state = try await control.finish(claim, outcome, result: result, error: error, maxAttempts: settings.maxAttempts)
                metrics.finished[outcome.rawValue, default: 0] += 1
                if state == nil {
                    metrics.fenced += 1
                    log.warn("job was taken by another worker before it ended here", ["id": claim.id])
                } else {
                    log.info("job ended", ["id": claim.id, "outcome": outcome.rawValue, "state": state?.rawValue ?? "-"])
                }
                return
            } catch {
                guard ContinuousClock.now < deadline else {
                    log.warn("could not end the job in Redis; its lease will lapse", ["id": claim.id, "error": error.description])
                    return
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Takes no new jobs, stops every held job and gives it back to the queue (another worker
    /// continues it), and waits until each has ended.
    func shutdown() async {
        accepting = false
        for job in held.values { job.release() }
        while let job = held.values.first {
            let task = job.task.withLock { $0 }
            await task?.value
            if held[job.id] === job { held[job.id] = nil }
        }
    }

    /// /metrics figures.
    func snapshot() -> (metrics: WorkerMetrics, capacity: WorkerCapacity, jobs: JobMetrics) {
        var jobs = ended
        for job in held.values {
            let progress = job.record.work.progress
            jobs.byState[job.record.state(progress), default: 0] += 1
            jobs.add(active: progress)
        }
        return (metrics, capacity, jobs)
    }

    // MARK: - Leases

    /// How often the lease keeper looks for jobs that just started (their first `running`).
    static let startTick = Duration.milliseconds(100)

    /// Every ``startTick``: a heartbeat for each job that just joined its room; each `stopCheck`:
    /// a heartbeat for each job due one (its progress with it), else a look at its stop flag, and
    /// the worker's report. The costs follow the rooms' participants.
    private func keepLeases() async {
        var lastCheck = ContinuousClock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: min(Self.startTick, settings.stopCheck))
            let checking = ContinuousClock.now - lastCheck >= settings.stopCheck
            if checking { lastCheck = .now }
            for job in Array(held.values) where !job.isFenced {
                await tend(job, checkStop: checking)
            }
            if checking { try? await control.report(worker: settings.name, json: report()) }
        }
    }

    private func tend(_ job: HeldJob, checkStop: Bool) async {
        let progress = job.record.work.progress
        if held[job.id] != nil {
            capacity.hold(job.id, cost: settings.costs.cost(kind: job.claim.kind, participants: progress.participants, composite: job.composite))
        }
        if job.heartbeatDue(every: settings.heartbeat, started: progress.started) {
            let sent = ContinuousClock.now
            do {
                let outcome = try await control.renew(job.claim, worker: settings.name, lease: settings.lease,
                                                      progress: job.record.json.serialized(), started: progress.started)
                switch outcome {
                case .held(let stopRequested):
                    job.heartbeat(sent: sent, started: progress.started, confirmed: true)
                    if stopRequested { stop(job) }
                case .fenced:
                    metrics.fenced += 1
                    log.warn("lease lost: another worker holds the job now; stopping it without writing", ["id": job.id])
                    job.fence()
                }
            } catch {
                lastRedisFailure = .now
                job.heartbeat(sent: sent, started: progress.started, confirmed: false)
                metrics.renewFailures += 1
                log.warn("heartbeat failed; the job goes on", ["id": job.id, "error": error.description])
            }
        } else if checkStop, (try? await control.stopRequested(job.id)) == true {
            stop(job)
        }
    }

    private func stop(_ job: HeldJob) {
        guard !job.record.stop.isRequested else { return }
        log.info("job stopping (asked through the API)", ["id": job.id])
        job.record.stop.request()
    }

    private func report() -> String {
        JSONValue.object([
            "capacity": .double(capacity.capacity), "used": .double(capacity.used), "jobs": .integer(Int64(capacity.held)),
            "at": .string(JobRecord.timestamp(Date())),
        ]).serialized()
    }
}

/// The recorder's question "may I still write?", answered by the job's lease once the job
/// exists (the work is made before its ``HeldJob``).
final class HeldJobGate: Sendable {
    private let job = Mutex<HeldJob?>(nil)

    func attach(_ held: HeldJob) { job.withLock { $0 = held } }

    var mayWrite: Bool { job.withLock { $0 }?.mayWrite ?? true }
}
