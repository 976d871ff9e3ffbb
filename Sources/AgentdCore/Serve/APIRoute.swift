/// Every path and method the daemon answers: the one table the router, the auth check and the
/// OpenAPI test read.
package enum APIRoute: String, CaseIterable, Sendable {
    case health, metrics, openAPI
    case createRecording, createBot, listJobs, getJob, deleteJob, getJobReport

    package var method: String {
        switch self {
        case .health, .metrics, .openAPI, .listJobs, .getJob, .getJobReport: "GET"
        case .createRecording, .createBot: "POST"
        case .deleteJob: "DELETE"
        }
    }

    /// The path as OpenAPI writes it: `{id}` stands for one path segment.
    package var path: String {
        switch self {
        case .health: "/healthz"
        case .metrics: "/metrics"
        case .openAPI: "/v1/openapi.json"
        case .createRecording: "/v1/recordings"
        case .createBot: "/v1/bots"
        case .listJobs: "/v1/jobs"
        case .getJob, .deleteJob: "/v1/jobs/{id}"
        case .getJobReport: "/v1/jobs/{id}/report"
        }
    }

    /// Every /v1 path needs `Authorization: Bearer <token>`; /healthz and /metrics do not (they
    /// carry no secrets, and a probe or scraper should not need the job token).
    package var requiresAuth: Bool { path.hasPrefix("/v1/") }
}
