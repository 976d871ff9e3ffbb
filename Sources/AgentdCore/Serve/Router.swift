/// Matches a request against ``APIRoute``'s table.
package enum Router {
    /// HEAD is served wherever GET is (RFC 9110 9.3.2: the same answer without its body; libsoup
    /// leaves the body out).
    package static func match(method: String, path: String) -> RouteMatch {
        // Every route starts at the root. Without this the first segment went unread, so
        // `x/v1/jobs` matched /v1/jobs, which the token check (reading the path) skips.
        guard path.hasPrefix("/") else { return .notFound }
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
