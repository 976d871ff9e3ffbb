import Agent
import Foundation
import Testing

@testable import AgentdCore

/// The decision the HTTP server takes before a body is read, as a pure function.
@Suite("RequestAdmission")
struct RequestAdmissionTests {
    let admission = RequestAdmission(auth: APIAuth(token: "admission-token-1234"))
    let bearer = ["authorization": "Bearer admission-token-1234"]

    func status(_ method: String, _ path: String, headers: [String: String] = [:], bodyBytes: Int = 0) -> Int? {
        guard case .refuse(let response) = admission.decide(HTTPRequest(method: method, path: path, headers: headers), bodyBytes: bodyBytes) else {
            return nil
        }
        return response.status
    }

    @Test("/v1 without the right token is 401 whatever the body, the route or the method")
    func unauthenticated() {
        #expect(status("POST", "/v1/recordings", bodyBytes: 300_000_000) == 401)
        #expect(status("POST", "/v1/recordings", headers: ["authorization": "Bearer nope"]) == 401)
        #expect(status("GET", "/v1/nothing-here") == 401)
        #expect(status("PUT", "/v1") == 401)
    }

    @Test("with the token: admitted up to the body limit, 413 above it; 404 and 405 as the router says")
    func authenticated() {
        #expect(admission.decide(HTTPRequest(method: "POST", path: "/v1/bots", headers: bearer), bodyBytes: RequestAdmission.maxBodyBytes) == .admit(.createBot, id: nil))
        #expect(status("POST", "/v1/bots", headers: bearer, bodyBytes: RequestAdmission.maxBodyBytes + 1) == 413)
        #expect(status("POST", "/v1/bots", headers: bearer, bodyBytes: Int.max) == 413)
        #expect(status("GET", "/v1/nowhere", headers: bearer) == 404)
        #expect(status("PUT", "/v1/jobs", headers: bearer) == 405)
        #expect(admission.decide(HTTPRequest(method: "DELETE", path: "/v1/jobs/abc", headers: bearer), bodyBytes: 0) == .admit(.deleteJob, id: "abc"))
    }

    @Test("HEAD is admitted wherever GET is, and nowhere else")
    func head() {
        #expect(admission.decide(HTTPRequest(method: "HEAD", path: "/healthz"), bodyBytes: 0) == .admit(.health, id: nil))
        #expect(admission.decide(HTTPRequest(method: "head", path: "/metrics"), bodyBytes: 0) == .admit(.metrics, id: nil))
        #expect(admission.decide(HTTPRequest(method: "HEAD", path: "/v1/jobs/x", headers: bearer), bodyBytes: 0) == .admit(.getJob, id: "x"))
        #expect(status("HEAD", "/v1/bots", headers: bearer) == 405)
    }

    /// Fuzz fixture (http target): `GET x/v1/jobs` was admitted to the job list without the token.
    @Test("a path that does not start with / is refused, never admitted")
    func pathWithoutRoot() {
        #expect(status("GET", "x/v1/jobs") == 404)
        #expect(status("DELETE", "x/v1/jobs/abc") == 404)
        #expect(status("HEAD", String(decoding: [0xDD], as: UTF8.self) + "/metrics") == 404)
    }

    @Test("/healthz and /metrics need no token")
    func open() {
        #expect(status("GET", "/healthz") == nil)
        #expect(status("GET", "/metrics") == nil)
        #expect(status("GET", "/nowhere") == 404)
    }
}
