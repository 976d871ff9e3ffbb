import AgentTransport
import Foundation
import TestSupport
import Testing

@Suite("HTTPClient")
struct HTTPClientTests {
    /// How long an exchange that should succeed may take. The in-process server answers from
    /// the shared cooperative pool, which other suites' CPU-bound work can hold for seconds in
    /// a parallel run on two cores (a clean-clone CI run saw 5 s deadlines missed).
    static let answerDeadline = Duration.seconds(60)
    /// A deadline that a refused or cancelled request must come back well inside: one that
    /// waited it out would take this long.
    static let longDeadline = Duration.seconds(120)

    @Test("a POST carries its headers and body; the 201's status, Location and body come back")
    func postCreated() async throws {
        let server = try LocalHTTPServer { request in
            var response = HTTPResponse.text(201, "answer:" + String(decoding: request.body, as: UTF8.self), contentType: "application/sdp")
            response.headers["Location"] = "/whip/resource/abc"
            return response
        }
        defer { server.stop() }
        let loop = EventLoop(name: "test.http.client")
        defer { loop.shutdown() }
        let client = HTTPClient(loop: loop)
        defer { client.close() }

        let response = try await client.request(
            "POST", url: server.url("/whip/endpoint/one"), headers: [(name: "Authorization", value: "Bearer s3cret")],
            body: (Data("v=0\r\n".utf8), "application/sdp"), timeout: Self.answerDeadline)
        #expect(response.status == 201)
        #expect(response.headers["location"] == "/whip/resource/abc")
        #expect(response.contentType == "application/sdp")
        #expect(String(decoding: response.body, as: UTF8.self) == "answer:v=0\r\n")

        let received = try #require(server.received.first)
        #expect(received.method == "POST")
        #expect(received.path == "/whip/endpoint/one")
        #expect(received.header("content-type") == "application/sdp")
        #expect(received.header("authorization") == "Bearer s3cret")
        #expect(received.body == Data("v=0\r\n".utf8))

        // The same client goes on: a DELETE on the same server.
        let deleted = try await client.request("DELETE", url: server.url("/whip/resource/abc"), timeout: Self.answerDeadline)
        #expect(deleted.status == 201)
        #expect(server.received.map(\.method) == ["POST", "DELETE"])
    }

    @Test("a 403 is a response, not an error")
    func forbidden() async throws {
        let server = try LocalHTTPServer { _ in .text(403, "Unauthorized") }
        defer { server.stop() }
        let loop = EventLoop(name: "test.http.client403")
        defer { loop.shutdown() }
        let client = HTTPClient(loop: loop)
        let response = try await client.request("POST", url: server.url("/x"), body: (Data("o".utf8), "application/sdp"), timeout: Self.answerDeadline)
        #expect(response.status == 403)
        #expect(String(decoding: response.body, as: UTF8.self) == "Unauthorized")
    }

    @Test("a closed port is connectionRefused, at once")
    func refused() async throws {
        let port = try LocalHTTPServer.closedPort()
        let loop = EventLoop(name: "test.http.refused")
        defer { loop.shutdown() }
        let client = HTTPClient(loop: loop)
        let started = ContinuousClock.now
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await client.request("GET", url: "http://127.0.0.1:\(port)/", timeout: Self.longDeadline)
        }
        guard case .connectionRefused = error else {
            Issue.record("expected connectionRefused, got \(String(describing: error))")
            return
        }
        #expect(ContinuousClock.now - started < Self.longDeadline / 2, "refused, not waited out")
    }

    @Test("a listener that never answers times out at the request's deadline")
    func timeout() async throws {
        let listener = try SilentTCPListener()
        defer { listener.close() }
        let loop = EventLoop(name: "test.http.timeout")
        defer { loop.shutdown() }
        let client = HTTPClient(loop: loop)
        let started = ContinuousClock.now
        await #expect(throws: HTTPClientError.timedOut(.milliseconds(300))) {
            _ = try await client.request("GET", url: "http://127.0.0.1:\(listener.port)/", timeout: .milliseconds(300))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(250) && elapsed < Self.answerDeadline / 2, "\(elapsed)")
    }

    @Test("a body past the limit fails with responseTooLarge; one at the limit is read whole")
    func tooLarge() async throws {
        let server = try LocalHTTPServer { request in
            .text(200, String(repeating: "x", count: request.path == "/big" ? 100_000 : 4096))
        }
        defer { server.stop() }
        let loop = EventLoop(name: "test.http.big")
        defer { loop.shutdown() }
        let client = HTTPClient(loop: loop, maxResponseBodySize: 4096)
        await #expect(throws: HTTPClientError.responseTooLarge(limit: 4096)) {
            _ = try await client.request("GET", url: server.url("/big"), timeout: Self.answerDeadline)
        }
        let fits = try await client.request("GET", url: server.url("/fits"), timeout: Self.answerDeadline)
        #expect(fits.body.count == 4096)
    }

    @Test("cancelling the caller's task cancels the request; a closed client refuses requests")
    func cancelAndClose() async throws {
        let listener = try SilentTCPListener()
        defer { listener.close() }
        let loop = EventLoop(name: "test.http.cancel")
        defer { loop.shutdown() }
        let client = HTTPClient(loop: loop)
        let url = "http://127.0.0.1:\(listener.port)/"
        let task = Task { () throws(HTTPClientError) -> HTTPResponse in
            try await client.request("GET", url: url, timeout: Self.longDeadline)
        }
        try await pollUntil(timeout: Self.answerDeadline, "the request to be in flight") { await client.requestsInFlight() == 1 }
        let started = ContinuousClock.now
        task.cancel()
        await #expect(throws: HTTPClientError.cancelled) { _ = try await task.value }
        #expect(ContinuousClock.now - started < Self.longDeadline / 2, "cancelled, not waited out")

        let pending = Task { () throws(HTTPClientError) -> HTTPResponse in
            try await client.request("GET", url: url, timeout: Self.longDeadline)
        }
        try await pollUntil(timeout: Self.answerDeadline, "the request to be in flight") { await client.requestsInFlight() == 1 }
        client.close()
        await #expect(throws: HTTPClientError.closed) { _ = try await pending.value }
        await #expect(throws: HTTPClientError.closed) {
            _ = try await client.request("GET", url: url, timeout: .seconds(1))
        }
    }

    @Test("a URL that is not http(s) is refused before anything is sent")
    func invalidURL() async throws {
        let loop = EventLoop(name: "test.http.url")
        defer { loop.shutdown() }
        let client = HTTPClient(loop: loop)
        await #expect(throws: HTTPClientError.invalidURL("ws://127.0.0.1:1/")) {
            _ = try await client.request("GET", url: "ws://127.0.0.1:1/", timeout: .seconds(1))
        }
    }
}
