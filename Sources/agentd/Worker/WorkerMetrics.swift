import AgentdCore
import JobQueue

/// A worker's counters since it started, for its /metrics page.
struct WorkerMetrics: Sendable, Equatable {
    var claimed = 0
    var reclaimed = 0
    var deadLettered = 0
    var released = 0
    var fenced = 0
    var renewFailures = 0
    var finished: [String: Int] = [:]

    func render(capacity: WorkerCapacity, redisUp: Bool, name: String, jobs: JobMetrics, process: ProcessStats?) -> String {
        var page = MetricsText()
        let worker = [("worker", name)]
        page.add("agentd_worker_capacity", .gauge, help: "The capacity this worker was given (--capacity).", [(labels: worker, value: capacity.capacity)])
        page.add("agentd_worker_used", .gauge, help: "What the jobs this worker holds cost now.", [(labels: worker, value: capacity.used)])
        page.add("agentd_worker_jobs_held", .gauge, help: "Jobs this worker holds.", [(labels: worker, value: Double(capacity.held))])
        page.add("agentd_worker_jobs_claimed_total", .counter, help: "Jobs claimed (new and reclaimed).", [(labels: worker, value: Double(claimed))])
        page.add("agentd_worker_jobs_reclaimed_total", .counter, help: "Jobs taken over from a worker whose lease lapsed.",
                 [(labels: worker, value: Double(reclaimed))])
        page.add("agentd_worker_jobs_dead_lettered_total", .counter, help: "Jobs this worker sent to the dead-letter stream.",
                 [(labels: worker, value: Double(deadLettered))])
        page.add("agentd_worker_jobs_released_total", .counter, help: "Jobs put back in the queue (no room for them, or shutting down).",
                 [(labels: worker, value: Double(released))])
        page.add("agentd_worker_jobs_fenced_total", .counter, help: "Jobs another worker took while this one held them (lease lost).",
                 [(labels: worker, value: Double(fenced))])
        page.add("agentd_worker_lease_renew_failures_total", .counter, help: "Heartbeats that did not reach Redis.",
                 [(labels: worker, value: Double(renewFailures))])
        page.add("agentd_worker_jobs_finished_total", .counter, help: "Holds ended, by outcome (done, failed, retry, release).",
                 FinishOutcome.allCases.map { (labels: worker + [("outcome", $0.rawValue)], value: Double(finished[$0.rawValue] ?? 0)) })
        page.add("agentd_redis_up", .gauge, help: "1 when the last call to Redis succeeded.", redisUp ? 1 : 0)
        return page.text + DaemonMetrics.render(jobs: jobs, process: process)
    }
}
