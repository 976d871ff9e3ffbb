import Agent
import AgentdCore
import JobQueue

/// A worker's own small HTTP surface: `GET /healthz` (Redis up or down, capacity, jobs) and
/// `GET /metrics`; nothing else (404), no token (like the daemon's own two).
enum WorkerHTTP {
    static func respond(_ request: HTTPRequest, worker: Worker) async -> HTTPResponse {
        guard request.method == "GET" else { return .json(405, ["error": "only GET"]) }
        switch request.path {
        case "/healthz":
            let up = (try? await worker.control.client.command(["PING"])) != nil
            let (_, capacity, _) = await worker.snapshot()
            return .json(up ? 200 : 503, [
                "status": up ? "ok" : "redis_down", "redis": up ? "up" : "down", "worker": .string(worker.settings.name),
                "capacity": .double(capacity.capacity), "used": .double(capacity.used), "jobs": .integer(Int64(capacity.held)),
            ])
        case "/metrics":
            let (metrics, capacity, jobs) = await worker.snapshot()
            let page = metrics.render(capacity: capacity, redisUp: worker.control.client.isUp, name: worker.settings.name, jobs: jobs,
                                      process: .current())
            return .text(200, page, contentType: MetricsText.contentType)
        default:
            return .json(404, ["error": "no such path: a worker serves /healthz and /metrics"])
        }
    }
}
