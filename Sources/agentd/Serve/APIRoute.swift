/// Every path and method the daemon answers: the one table the router, the auth check and the
/// OpenAPI test read.
enum APIRoute: String, CaseIterable, Sendable {
    case health, metrics, openAPI
    case createRecording, createBot, listJobs, getJob, deleteJob

    var method: String {
        switch self {
        case .health, .metrics, .openAPI, .listJobs, .getJob: "GET"
        case .createRecording, .createBot: "POST"
        case .deleteJob: "DELETE"
        }
    }

    /// The path as OpenAPI writes it: `{id}` stands for one path segment.
    var path: String {
        switch self {
        case .health: "/healthz"
        case .metrics: "/metrics"
        case .openAPI: "/v1/openapi.json"
        case .createRecording: "/v1/recordings"
        case .createBot: "/v1/bots"
        case .listJobs: "/v1/jobs"
        case .getJob, .deleteJob: "/v1/jobs/{id}"
        }
    }

    /// Every /v1 path needs `Authorization: Bearer <token>`; /healthz and /metrics do not (they
    /// carry no secrets, and a probe or scraper should not need the job token).
    var requiresAuth: Bool { path.hasPrefix("/v1/") }
}

/// What a request's method and path name.
enum RouteMatch: Equatable, Sendable {
    /// A route, with the `{id}` segment when its path has one.
    case route(APIRoute, id: String?)
    /// The path exists, with other methods.
    case methodNotAllowed(allowed: [String])
    case notFound
}

/// Matches a request against ``APIRoute``'s table.
enum Router {
    /// HEAD is served wherever GET is (RFC 9110 9.3.2: the same answer without its body; libsoup
    /// leaves the body out).
    static func match(method: String, path: String) -> RouteMatch {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let method = method.uppercased()
        var allowed: [String] = []
        for route in APIRoute.allCases {
            guard let id = bind(route.path, segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") { return .route(route, id: id.isEmpty ? nil : id) }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    /// The `{id}` value ("" when the template has none) if `segments` fit `template`, else nil.
    private static func bind(_ template: String, _ segments: [String]) -> String? {
        let parts = template.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count == segments.count else { return nil }
        var id = ""
        for (part, segment) in zip(parts, segments) {
            if part == "{id}" {
                guard !segment.isEmpty else { return nil }
                id = segment
            } else if part != segment {
                return nil
            }
        }
        return id
    }
}
