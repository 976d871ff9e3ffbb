import Agent
import Foundation

/// The daemon's jobs: starts each on its own task, keeps them for the API (the running ones and
/// the latest ended ones), enforces the concurrency limit, and at shutdown stops them all and
/// waits until every file is final.
actor JobRegistry {
    /// Why a new job was refused.
    enum Rejection: Error, Equatable, CustomStringConvertible {
        /// As many jobs run as the config allows (429).
        case full(limit: Int)
        /// The daemon is shutting down (503).
        case shuttingDown
        /// The id names a job of another kind (409).
        case idTaken(id: String, kind: JobKind)

        var description: String {
            switch self {
            case .full(let limit): "\(limit) job(s) are running, as many as max_jobs allows; stop one or try later"
            case .shuttingDown: "the daemon is shutting down and takes no new jobs"
            case .idTaken(let id, let kind): "job \(id) exists already, as a \(kind.rawValue) job"
            }
        }
    }

    let limit: Int
    /// Ended jobs kept for `GET /v1/jobs`; older ones are forgotten.
    let keepEnded: Int
    private let log: ServeLog
    private var jobs: [String: JobRecord] = [:]
    private var order: [String] = []
    private var tasks: [String: Task<Void, Never>] = [:]
    private var accepting = true
    private var metrics = JobMetrics()

    init(limit: Int, keepEnded: Int = 200, log: ServeLog) {
        self.limit = max(1, limit)
        self.keepEnded = max(0, keepEnded)
        self.log = log
    }

    var isAccepting: Bool { accepting }

    /// Starts `work` as a new job and returns it as JSON; with the `id` of a job it knows, starts
    /// nothing and returns that job (`created` false): a client's retry makes no second job.
    func submit(kind: JobKind, work: any JobWork, id: String? = nil) throws(Rejection) -> (job: JSONValue, created: Bool) {
        if let id, let existing = jobs[id] {
            guard existing.kind == kind else { throw .idTaken(id: id, kind: existing.kind) }
            return (existing.json, false)
        }
        guard accepting else { throw .shuttingDown }
        let active = jobs.values.filter(\.isActive).count
        guard active < limit else { throw .full(limit: limit) }
        let id = id ?? JobSubmission.newID()
        let record = JobRecord(id: id, kind: kind, createdAt: Date(), work: work)
        jobs[id] = record
        order.append(id)
        metrics.created[kind, default: 0] += 1
        let stop = record.stop
        log.info("job created", ["id": id, "kind": kind.rawValue, "room": work.details["room"]?.stringValue ?? "-"])
        tasks[id] = Task {
            let ending: Result<[String: JSONValue], Error>
            do {
                ending = .success(try await work.run(until: stop))
            } catch {
                ending = .failure(error)
            }
            self.finished(id, ending)
        }
        return (record.json, true)
    }

    private func finished(_ id: String, _ ending: Result<[String: JSONValue], Error>) {
        tasks[id] = nil
        guard var record = jobs[id] else { return }
        record.endedAt = Date()
        switch ending {
        case .success(let result):
            record.lifecycle = .done
            record.result = result
            log.info("job done", ["id": id, "stopped_by": result["stopped_by"]?.stringValue ?? "-"])
        case .failure(let error):
            record.lifecycle = .failed
            record.error = ErrorText.describe(error)
            log.warn("job failed", ["id": id, "error": ErrorText.describe(error)])
        }
        jobs[id] = record
        metrics.noteEnded(record.work.progress)
        forgetOldEndedJobs()
    }

    private func forgetOldEndedJobs() {
        let ended = order.filter { jobs[$0]?.isActive == false }
        for id in ended.dropLast(keepEnded) {
            jobs[id] = nil
            order.removeAll { $0 == id }
        }
    }

    /// Every known job, oldest first.
    func list() -> [JSONValue] {
        order.compactMap { jobs[$0]?.json }
    }

    func job(_ id: String) -> JSONValue? {
        jobs[id]?.json
    }

    /// Asks a job to stop cleanly; returns it (state `stopping`, or as it was if it had ended).
    func stop(_ id: String) -> JSONValue? {
        guard var record = jobs[id] else { return nil }
        if record.lifecycle == .active {
            record.lifecycle = .stopping
            jobs[id] = record
            log.info("job stopping", ["id": id])
        }
        record.stop.request()
        return record.json
    }

    /// Refuses new jobs from now on, stops every job and waits until each has ended.
    func shutdown() async {
        accepting = false
        for id in order { _ = stop(id) }
        while let task = tasks.values.first {
            await task.value
        }
    }

    /// Figures for /metrics: jobs by state and kind, and counters over every job so far.
    func metricsSnapshot() -> JobMetrics {
        var snapshot = metrics
        for record in jobs.values {
            let progress = record.work.progress
            snapshot.byState[record.state(progress), default: 0] += 1
            if record.isActive { snapshot.add(active: progress) }
        }
        return snapshot
    }
}
