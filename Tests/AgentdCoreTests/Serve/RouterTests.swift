import Testing

@testable import AgentdCore

@Suite struct RouterTests {
    @Test func routesByMethodAndPath() {
        #expect(Router.match(method: "GET", path: "/v1/jobs/abc") == .route(.getJob, id: "abc"))
        #expect(Router.match(method: "get", path: "/healthz") == .route(.health, id: nil))
        #expect(Router.match(method: "POST", path: "/v1/jobs") == .methodNotAllowed(allowed: ["GET"]))
        #expect(Router.match(method: "GET", path: "/v1/jobs/") == .notFound)
        #expect(Router.match(method: "GET", path: "//v1/jobs") == .notFound)
    }

    /// Fuzz fixture (http target, minimized): `HEAD \xdd/metrics`. The router dropped a path's
    /// first segment unread, so `x/metrics` was /metrics and `x/v1/jobs` was /v1/jobs, which
    /// the token check (reading `/v1/` at the start) let through. libsoup answers 400 to such a
    /// request line before we see it; the decision no longer depends on that.
    @Test(arguments: [String(decoding: [0xDD], as: UTF8.self) + "/metrics", "x/v1/jobs", "v1/jobs", "/", "", "*"])
    func aPathNotStartingAtTheRootNamesNoRoute(path: String) {
        #expect(Router.match(method: "GET", path: path) == .notFound)
        #expect(Router.match(method: "HEAD", path: path) == .notFound)
    }
}
