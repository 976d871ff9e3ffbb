import CSoup
import Foundation

/// One request of ``HTTPClient`` and its response, confined to the client's loop: the
/// `SoupMessage`, the response stream read chunk by chunk, the deadline, and the caller waiting.
///
///     start ─▶ soup_session_send_async ─▶ sent (status, headers) ─▶ read … ─▶ EOF ─▶ finish
///                        cancel (timeout, task cancelled, client closed) ─▶ GCancellable ─┘
///
/// The caller is resumed exactly once, in ``finish(_:)``. Every libsoup callback holds its own
/// retained reference, so the exchange outlives every callback that can still reach it; it holds
/// the session (referenced) until the last one came back.
final class HTTPClientExchange: @unchecked Sendable {
    // @unchecked Sendable: every var below is touched only on `loop` (each entry point asserts
    // it); `request` and `maxBodySize` are immutable.
    struct Header: Sendable {
        let name: String
        let value: String
    }

    struct Body: Sendable {
        let data: Data
        let contentType: String
    }

    struct Request: Sendable {
        let method: String
        let url: String
        let headers: [Header]
        let body: Body?
        let timeout: Duration
    }

    let loop: EventLoop
    let request: Request
    let maxBodySize: Int

    private var session: UnsafeMutablePointer<SoupSession>?
    private var message: OpaquePointer?
    private var stream: UnsafeMutablePointer<GInputStream>?
    private var cancellable: UnsafeMutablePointer<GCancellable>?
    private var deadline: LoopTimer?
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private var finished: (() -> Void)?
    /// Why we cancelled, when we did: what the caller is told instead of libsoup's "cancelled".
    private var cancelReason: HTTPClientError?
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()

    /// The most one read asks for.
    private static let chunkSize = 16 * 1024

    init(loop: EventLoop, request: Request, maxBodySize: Int) {
        self.loop = loop
        self.request = request
        self.maxBodySize = maxBodySize
    }

    /// Sends the request on `session`; `continuation` gets the response or the error, and then
    /// `finished` runs.
    func start(
        on session: UnsafeMutablePointer<SoupSession>, continuation: CheckedContinuation<HTTPResponse, any Error>,
        finished: @escaping () -> Void
    ) {
        loop.assertInLoop()
        self.continuation = continuation
        self.finished = finished
        if let cancelReason {  // cancelled before it reached the loop
            finish(.failure(cancelReason))
            return
        }
        guard let message = soup_message_new(request.method, request.url) else {
            finish(.failure(.invalidURL(request.url)))
            return
        }
        self.message = message
        let requestHeaders = soup_message_get_request_headers(message)
        for header in request.headers { soup_message_headers_append(requestHeaders, header.name, header.value) }
        if let body = request.body {
            let bytes = body.data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(message, body.contentType, bytes)
            g_bytes_unref(bytes)
        }
        g_object_ref(UnsafeMutableRawPointer(session))
        self.session = session
        cancellable = g_cancellable_new()
        let timeout = request.timeout
        deadline = loop.schedule(after: timeout) { [self] in cancel(.timedOut(timeout)) }
        soup_session_send_async(
            session, message, G_PRIORITY_DEFAULT, cancellable,
            { _, result, data in
                guard let data else { return }
                Unmanaged<HTTPClientExchange>.fromOpaque(data).takeRetainedValue().sent(result)
            },
            Unmanaged.passRetained(self).toOpaque())
    }

    /// Ends the request with `reason` (the timeout, the caller's cancel, the client's close):
    /// libsoup's callback then comes back cancelled and finishes it. Idempotent.
    func cancel(_ reason: HTTPClientError) {
        loop.assertInLoop()
        guard cancelReason == nil else { return }
        cancelReason = reason
        if let cancellable { g_cancellable_cancel(cancellable) }
    }

    // MARK: libsoup's callbacks

    private func sent(_ result: OpaquePointer?) {
        loop.assertInLoop()
        var error: UnsafeMutablePointer<GError>?
        let stream = soup_session_send_finish(session, result, &error)
        guard let stream else {
            finish(.failure(cancelReason ?? Self.failure(error)))
            return
        }
        if let error { g_error_free(error) }
        self.stream = stream
        guard cancelReason == nil else {
            finish(.failure(cancelReason ?? .cancelled))
            return
        }
        status = Int(soup_message_get_status(message).rawValue)
        headers = SoupHeaders.dictionary(soup_message_get_response_headers(message))
        readNext()
    }

    private func readNext() {
        // One byte past the limit is enough to know the body is too large.
        let wanted = min(Self.chunkSize, maxBodySize - body.count + 1)
        g_input_stream_read_bytes_async(
            stream, gsize(wanted), G_PRIORITY_DEFAULT, cancellable,
            { _, result, data in
                guard let data else { return }
                Unmanaged<HTTPClientExchange>.fromOpaque(data).takeRetainedValue().read(result)
            },
            Unmanaged.passRetained(self).toOpaque())
    }

    private func read(_ result: OpaquePointer?) {
        loop.assertInLoop()
        var error: UnsafeMutablePointer<GError>?
        guard let bytes = g_input_stream_read_bytes_finish(stream, result, &error) else {
            finish(.failure(cancelReason ?? Self.failure(error)))
            return
        }
        defer { g_bytes_unref(bytes) }
        if let error { g_error_free(error) }
        if let cancelReason {
            finish(.failure(cancelReason))
            return
        }
        var size = 0
        let start = g_bytes_get_data(bytes, &size)
        guard size > 0, let start else {
            let contentType = headers["content-type"] ?? ""
            finish(.success(HTTPResponse(status: status, contentType: contentType, body: body, headers: headers)))
            return
        }
        guard body.count + size <= maxBodySize else {
            finish(.failure(.responseTooLarge(limit: maxBodySize)))
            return
        }
        body.append(start.assumingMemoryBound(to: UInt8.self), count: size)
        readNext()
    }

    // MARK: The end

    /// Resumes the caller and frees the request's objects; only the first call counts. A stream
    /// dropped before its end makes libsoup close that connection rather than reuse it.
    private func finish(_ result: Result<HTTPResponse, HTTPClientError>) {
        loop.assertInLoop()
        deadline?.cancel()
        deadline = nil
        if let stream {
            g_object_unref(UnsafeMutableRawPointer(stream))
            self.stream = nil
        }
        if let message {
            g_object_unref(UnsafeMutableRawPointer(message))
            self.message = nil
        }
        if let cancellable {
            g_object_unref(UnsafeMutableRawPointer(cancellable))
            self.cancellable = nil
        }
        if let session {
            g_object_unref(UnsafeMutableRawPointer(session))
            self.session = nil
        }
        let continuation = self.continuation
        self.continuation = nil
        continuation?.resume(with: result.mapError { $0 as any Error })
        let finished = self.finished
        self.finished = nil
        finished?()
    }

    /// The client error for a GLib/libsoup error (freed here).
    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> HTTPClientError {
        guard let error else { return .failed("libsoup reported no reason") }
        defer { g_error_free(error) }
        let reason = String(cString: error.pointee.message)
        guard error.pointee.domain == g_io_error_quark() else { return .failed(reason) }
        switch error.pointee.code {
        case gint(G_IO_ERROR_CONNECTION_REFUSED.rawValue): return .connectionRefused(reason)
        case gint(G_IO_ERROR_HOST_UNREACHABLE.rawValue), gint(G_IO_ERROR_NETWORK_UNREACHABLE.rawValue): return .unreachable(reason)
        case gint(G_IO_ERROR_CANCELLED.rawValue): return .cancelled
        default: return .failed(reason)
        }
    }
}
