import AgentdCore
import JobQueue

/// How a worker takes and holds jobs (`agentd worker`'s flags).
struct WorkerSettings: Sendable {
    /// Its consumer name in the group, in its jobs' `worker` field and its metrics.
    var name: String
    var capacity: Double
    var costs = JobCosts()
    /// How long a claim holds without a heartbeat; a lapsed one is reclaimed by another worker.
    var lease = Duration.seconds(15)
    var heartbeat = Duration.seconds(5)
    /// How often the worker asks whether DELETE stopped one of its jobs.
    var stopCheck = Duration.seconds(1)
    /// Runs of a job (failures and lapsed leases) before it goes to the dead-letter stream.
    var maxAttempts = 3
    /// How long a read for new jobs blocks (under the Redis client's timeout).
    var block = Duration.seconds(1)
    /// How often a worker with room looks for lapsed leases.
    var reapEvery = Duration.seconds(1)
}
