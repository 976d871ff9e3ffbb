import Foundation

/// A small HTTP/1.1 server on libsoup's `SoupServer`, bound to one ``EventLoop``.
///
/// libsoup parses each request on the loop; the server asks ``Handlers/admit`` as soon as the
/// headers are in and after every body chunk, so a refused request's body is never read, and
/// hands the complete request to ``Handlers/respond`` on a task (on ``Handlers/executor``), so a
/// slow handler (stopping a recording) never blocks the loop. Every connection runs under ``HTTPLimits``. See
/// ``HTTPListener`` and ``HTTPConnection`` for how connections are accepted and closed.
package final class HTTPServer: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// What the server asks of its user.
    package struct Handlers: Sendable {
        /// Where ``respond`` runs (a task executor preference); nil: the cooperative pool.
        let executor: (any TaskExecutor)?
        /// On the loop, with the request's head and its body size so far (Content-Length first):
        /// a response to refuse the request with, or nil to read on.
        let admit: @Sendable (_ head: HTTPRequest, _ bodyBytes: Int) -> HTTPResponse?
        /// On the loop, after the server wrote a refusal from `admit` itself (for the log).
        let refused: @Sendable (_ head: HTTPRequest, _ response: HTTPResponse) -> Void
        /// The answer to a complete request.
        let respond: @Sendable (HTTPRequest) async -> HTTPResponse

        package init(
            executor: (any TaskExecutor)?, admit: @escaping @Sendable (_ head: HTTPRequest, _ bodyBytes: Int) -> HTTPResponse?,
            refused: @escaping @Sendable (_ head: HTTPRequest, _ response: HTTPResponse) -> Void,
            respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
        ) {
            self.executor = executor
            self.admit = admit
            self.refused = refused
            self.respond = respond
        }
    }

    package let loop: EventLoop
    private let listener: HTTPListener

    package init(loop: EventLoop, limits: HTTPLimits = .standard, handlers: Handlers) {
        self.loop = loop
        listener = HTTPListener(loop: loop, limits: limits, handlers: handlers)
    }

    /// Listens on `host` (an IPv4 or IPv6 literal) and `port` (0: any free port).
    /// - Returns: the port actually bound.
    package func listen(host: String, port: UInt16) throws -> UInt16 {
        let listener = self.listener
        return try loop.sync { try listener.listen(host: host, port: port) }
    }

    /// Stops listening and closes every connection; answers still being computed are discarded.
    /// Idempotent.
    package func stop() {
        let listener = self.listener
        try? loop.sync { listener.stop() }
    }
}
