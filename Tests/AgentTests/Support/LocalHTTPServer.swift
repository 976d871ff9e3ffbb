import AgentTransport
import Foundation

/// An in-process ``HTTPServer`` on 127.0.0.1 with its own loop, answering every request with
/// `respond` and keeping what it received, for the HTTP client's and the WHIP adapter's tests.
final class LocalHTTPServer: Sendable {
    let port: UInt16
    private let loop: EventLoop
    private let server: HTTPServer
    private let requests = LockedList<HTTPRequest>()

    init(name: String = "test.http.server", respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) throws {
        loop = EventLoop(name: name)
        let requests = self.requests
        server = HTTPServer(
            loop: loop,
            handlers: HTTPServer.Handlers(
                executor: nil, admit: { _, _ in nil }, refused: { _, _ in },
                respond: { request in
                    requests.append(request)
                    return await respond(request)
                }))
        do {
            port = try server.listen(host: "127.0.0.1", port: 0)
        } catch {
            loop.shutdown()
            throw error
        }
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Every request answered so far, in order.
    var received: [HTTPRequest] { requests.all }

    /// Idempotent.
    func stop() {
        server.stop()
        loop.shutdown()
    }

    /// A port nobody listens on (one a server just let go).
    static func closedPort() throws -> UInt16 {
        let probe = try LocalHTTPServer(name: "test.http.probe") { _ in .text(200, "") }
        let port = probe.port
        probe.stop()
        return port
    }
}
