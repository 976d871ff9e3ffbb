import CSoup
import Foundation

/// A small HTTP/1.1 client on libsoup's `SoupSession`, bound to one ``EventLoop``: the
/// signaling of HTTP-based platforms (WHIP, RFC 9725), beside ``WebSocketClient`` for Janus's.
///
/// libsoup runs on the loop (whose context is thread-default there, so its sources attach to
/// it); a request hops onto the loop, and its answer comes back to the caller's task. Every
/// request has a deadline for the whole exchange (connect, send, headers, body), the body is read
/// up to ``maxResponseBodySize`` and no further, and cancelling the caller's task cancels the
/// request. The session uses no proxy, whatever the environment says: the addresses it is given
/// are the peers themselves.
///
/// A response of any status is a response (``HTTPResponse``, headers by lowercased name); only a
/// request that got none throws (``HTTPClientError``).
package final class HTTPClient: Sendable {
    package let loop: EventLoop
    /// The largest response body accepted; a longer one fails with
    /// ``HTTPClientError/responseTooLarge(limit:)`` once that much was read.
    package let maxResponseBodySize: Int
    /// The session (made on the loop at the first request) and whether ``close()`` came.
    private let state: LoopBound<State>

    private struct State {
        var session: UnsafeMutablePointer<SoupSession>?
        var closed = false
        /// Requests in flight, so a close can fail them at once.
        var exchanges: [ObjectIdentifier: HTTPClientExchange] = [:]
    }

    package init(loop: EventLoop, maxResponseBodySize: Int = 1 << 20) {
        self.loop = loop
        self.maxResponseBodySize = max(0, maxResponseBodySize)
        state = LoopBound(State(), loop: loop)
    }

    deinit {
        // The session may only be touched on its loop; a loop already shut down leaks it, the
        // only safe choice.
        let state = self.state
        loop.execute { HTTPClient.shutDown(state) }
    }

    /// Sends one request and reads its whole response.
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PATCH`, `DELETE`, …
    ///   - url: an `http://` or `https://` URL.
    ///   - headers: request headers, appended in order (Content-Type goes with `body`).
    ///   - body: the request body and its content type, sent as is.
    ///   - timeout: for the whole exchange, from the connect to the body's last byte.
    /// - Throws: ``HTTPClientError`` when no complete response came.
    package func request(
        _ method: String, url: String, headers: [(name: String, value: String)] = [],
        body: (data: Data, contentType: String)? = nil, timeout: Duration
    ) async throws(HTTPClientError) -> HTTPResponse {
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPClientError.invalidURL(url)
        }
        let request = HTTPClientExchange.Request(
            method: method, url: url, headers: headers.map { .init(name: $0.name, value: $0.value) },
            body: body.map { .init(data: $0.data, contentType: $0.contentType) }, timeout: timeout)
        let exchange = HTTPClientExchange(loop: loop, request: request, maxBodySize: maxResponseBodySize)
        let state = self.state
        let loop = self.loop
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                    loop.execute { HTTPClient.start(exchange, state: state, continuation: continuation) }
                }
            } onCancel: {
                loop.execute { exchange.cancel(.cancelled) }
            }
        } catch let error as HTTPClientError {
            throw error
        } catch {
            throw HTTPClientError.failed("\(error)")
        }
    }

    /// How many requests are waiting for their response now.
    package func requestsInFlight() async -> Int {
        let state = self.state
        return (try? await loop.submit { state.value.exchanges.count }) ?? 0
    }

    /// Fails every request in flight with ``HTTPClientError/closed`` and every later one too.
    /// Idempotent; safe from any thread.
    package func close() {
        let state = self.state
        loop.execute { HTTPClient.shutDown(state) }
    }

    private static func start(
        _ exchange: HTTPClientExchange, state: LoopBound<State>, continuation: CheckedContinuation<HTTPResponse, any Error>
    ) {
        let key = ObjectIdentifier(exchange)
        let session: UnsafeMutablePointer<SoupSession>? = state.withValue { state in
            guard !state.closed else { return nil }
            if state.session == nil {
                let session = soup_session_new()
                // No proxy: the URLs name the peers themselves (and traffic may go nowhere else).
                soup_session_set_proxy_resolver(session, nil)
                soup_session_set_user_agent(session, "agentd")
                state.session = session
            }
            if state.session != nil { state.exchanges[key] = exchange }
            return state.session
        }
        guard let session else {
            continuation.resume(throwing: HTTPClientError.closed)
            return
        }
        // Outside withValue: a request that fails at once calls this right away.
        exchange.start(on: session, continuation: continuation) {
            state.withValue { _ = $0.exchanges.removeValue(forKey: key) }
        }
    }

    private static func shutDown(_ state: LoopBound<State>) {
        let (exchanges, session) = state.withValue { state in
            state.closed = true
            defer {
                state.exchanges = [:]
                state.session = nil
            }
            return (Array(state.exchanges.values), state.session)
        }
        for exchange in exchanges { exchange.cancel(.closed) }
        if let session {
            soup_session_abort(session)
            g_object_unref(session)
        }
    }
}
