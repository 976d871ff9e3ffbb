import Dispatch

/// Where API requests are answered: a serial dispatch queue of its own, as a task executor.
///
/// Without it a request's task runs on Swift's cooperative pool, one thread per core (two here),
/// and anything that blocks those threads (a job's file I/O, a C call that waits) leaves the
/// API, /healthz included, unanswered until it ends. With this executor as the task's
/// preference (SE-0417), the handler and the default actors it calls (the job registry) run on
/// this queue's thread, which libdispatch takes from its own pool, not the cooperative one.
/// Jobs the API starts run in unstructured tasks, which do not inherit the preference.
final class APIExecutor: TaskExecutor {
    static let shared = APIExecutor()

    private let queue = DispatchQueue(label: "agentd.api")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
