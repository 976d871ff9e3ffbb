import CAgentShims
import CSoup
import Foundation
import Glibc

/// One client connection of ``HTTPServer``: its socket, the `SoupServer` that speaks HTTP on it
/// (see ``HTTPListener`` for why each connection has its own), the request in progress and the
/// one deadline that applies now (``HTTPLimits``). Confined to the server's loop.
///
/// A request goes idle → headers (first byte in) → body (headers in, admitted) → handling (the
/// handler runs on a task, the message paused) → writing (answer set, message resumed) → idle
/// (libsoup finished it; pipelined requests follow in order). A refusal before the body is read
/// pauses libsoup, writes the answer with `Connection: close` itself, shuts down the sending side
/// and drops whatever the client still sends (bounded), then closes.
final class HTTPConnection: @unchecked Sendable {
    // @unchecked Sendable: every var is touched only on `loop` (each entry point asserts it);
    // the handler task only carries the connection back to the loop through `loop.execute`.
    enum Phase: Equatable {
        case idle, headers, body, handling, writing, refusing, closed
    }

    let loop: EventLoop
    let limits: HTTPLimits
    let handlers: HTTPServer.Handlers
    let socket: UnsafeMutablePointer<GSocket>
    private weak var listener: HTTPListener?
    /// The user data of every libsoup and GLib callback of this connection; cut on close, so a
    /// late callback finds no connection.
    let target: HTTPConnectionTarget

    var server: UnsafeMutablePointer<SoupServer>?
    private(set) var phase = Phase.idle
    /// The message being read, handled or answered (referenced), and its number on this connection.
    var message: OpaquePointer?
    private var serial = 0
    private var head: HTTPRequest?
    private var body = Data()
    private var deadline: LoopTimer?
    /// Watches the socket while idle (for the client's EOF) or while refusing (to drain it).
    var watch: UnsafeMutablePointer<GSource>?
    private var drained = 0

    /// G_IO_IN | G_IO_HUP | G_IO_ERR (GLib defines them as poll(2)'s bits; Swift cannot import
    /// those enumerators).
    static let readableOrClosed = GIOCondition(rawValue: GIOCondition.RawValue(POLLIN | POLLHUP | POLLERR))

    init(socket: UnsafeMutablePointer<GSocket>, listener: HTTPListener) {
        g_object_ref(UnsafeMutableRawPointer(socket))
        self.socket = socket
        self.listener = listener
        loop = listener.loop
        limits = listener.limits
        handlers = listener.handlers
        target = HTTPConnectionTarget()
        target.connection = self
    }

    /// Hands the socket to a new `SoupServer` and waits for the first request.
    func start() {
        loop.assertInLoop()
        becomeIdle()  // first: libsoup may start a request already inside attachSoup
        guard attachSoup() else {
            close()
            return
        }
    }

    // MARK: libsoup's events (see HTTPConnection+Soup.swift for the wiring)

    func requestStarted(_ started: OpaquePointer) {
        loop.assertInLoop()
        guard phase == .idle else { return }
        removeWatch()
        g_object_ref(UnsafeMutableRawPointer(started))
        message = started
        serial += 1
        head = nil
        body = Data()
        connectMessageSignals(started)
        enter(.headers, deadline: limits.headers)
    }

    func gotHeaders(_ current: OpaquePointer) {
        loop.assertInLoop()
        guard phase == .headers, current == message else { return }
        let headers = soup_server_message_get_request_headers(current)
        let head = HTTPRequest(
            method: soup_server_message_get_method(current).map { String(cString: $0) } ?? "GET", path: Self.path(of: current),
            headers: SoupHeaders.dictionary(headers))
        self.head = head
        // The body is collected here, chunk by chunk under the limit, never whole by libsoup.
        soup_message_body_set_accumulate(soup_server_message_get_request_body(current), 0)
        let encoding = soup_message_headers_get_encoding(headers)
        let declared = encoding == SOUP_ENCODING_CONTENT_LENGTH ? Int(clamping: soup_message_headers_get_content_length(headers)) : 0
        let hasBody = declared > 0 || encoding == SOUP_ENCODING_CHUNKED
        // A request without a body is answered the usual way (the handler asks the same
        // question), so its connection stays open for the next one.
        if hasBody, let refusal = handlers.admit(head, declared) {
            refuse(refusal, head: head)
            return
        }
        enter(.body, deadline: limits.body)
    }

    func gotChunk(_ current: OpaquePointer, _ chunk: OpaquePointer) {
        loop.assertInLoop()
        guard phase == .body, current == message, let head else { return }
        var size = 0
        guard let bytes = g_bytes_get_data(chunk, &size), size > 0 else { return }
        let (total, overflow) = body.count.addingReportingOverflow(size)
        if let refusal = handlers.admit(head, overflow ? Int.max : total) {
            refuse(refusal, head: head)
            return
        }
        body.append(bytes.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// The request is complete (libsoup calls the handler after the body).
    func handle(_ current: OpaquePointer) {
        loop.assertInLoop()
        guard phase == .body, current == message, let head else { return }
        let request = HTTPRequest(method: head.method, path: head.path, headers: head.headers, body: body)
        body = Data()
        soup_server_message_pause(current)
        enter(.handling, deadline: nil)
        let number = serial
        let respond = handlers.respond
        Task(executorPreference: handlers.executor) {
            let response = await respond(request)
            self.loop.execute { self.answer(number, response) }
        }
    }

    private func answer(_ number: Int, _ response: HTTPResponse) {
        loop.assertInLoop()
        guard phase == .handling, number == serial, let message else { return }  // closed meanwhile
        soup_server_message_set_status(message, guint(clamping: response.status), nil)
        let headers = soup_server_message_get_response_headers(message)
        for (name, value) in response.headers { soup_message_headers_replace(headers, name, value) }
        response.body.withUnsafeBytes { bytes in
            soup_server_message_set_response(
                message, response.contentType, SOUP_MEMORY_COPY, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(bytes.count))
        }
        enter(.writing, deadline: limits.write)
        soup_server_message_unpause(message)
    }

    /// libsoup is done with the message: answered (request-finished) or failed (request-aborted).
    func requestEnded(_ ended: OpaquePointer) {
        loop.assertInLoop()
        guard ended == message, phase != .refusing, phase != .closed else { return }
        releaseMessage()
        becomeIdle()
    }

    /// The connection under the message went away (libsoup closed it).
    func disconnected() {
        loop.assertInLoop()
        loop.execute { [self] in close() }  // not from inside libsoup's own callback
    }

    // MARK: idle, refusing, closing

    private func becomeIdle() {
        enter(.idle, deadline: limits.idle)
        // After a request libsoup may close the connection itself (Connection: close, HTTP/1.0);
        // look once it is done, on the next turn of the loop.
        loop.execute { [self] in
            guard phase == .idle else { return }
            if g_socket_is_closed(socket) != 0 {
                close()
            } else if watch == nil {
                watch = makeSocketWatch(Self.readableOrClosed) { connection in connection.idleSocketReady() }
            }
        }
    }

    /// The socket is readable while no request runs: the start of the next request (libsoup reads
    /// it first, at a higher priority) or the client's EOF, which libsoup 3.2 would never act on.
    private func idleSocketReady() -> Bool {
        guard phase == .idle else { return false }
        var byte: UInt8 = 0
        let peeked = recv(g_socket_get_fd(socket), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if peeked > 0 { return false }  // a request is coming: libsoup will start it
        if peeked < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return true }
        close()
        return false
    }

    private func refuse(_ response: HTTPResponse, head: HTTPRequest?) {
        guard phase != .refusing, phase != .closed else { return }
        if let message { soup_server_message_pause(message) }
        enter(.refusing, deadline: limits.drain)
        if let head { handlers.refused(head, response) }
        let bytes = Self.closingWireBytes(response)
        // A short answer, sent without waiting: a socket that cannot take it now belongs to a
        // client that does not read its answers, and that client loses it.
        _ = bytes.withUnsafeBufferPointer { buffer in
            g_socket_send_with_blocking(socket, UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: gchar.self), gsize(buffer.count), 0, nil, nil)
        }
        g_socket_shutdown(socket, 0, 1, nil)
        drained = 0
        removeWatch()
        watch = makeSocketWatch(Self.readableOrClosed) { connection in connection.drain() }
    }

    /// Reads and drops what the client still sends after a refusal, until it closes, the drain
    /// budget is spent, or the drain deadline closes the connection.
    private func drain() -> Bool {
        guard phase == .refusing else { return false }
        let fd = g_socket_get_fd(socket)
        let more = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16384) { buffer -> Bool in
            for _ in 0..<8 {
                let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 {
                    drained += count
                    if drained > limits.drainBytes { return false }
                    continue
                }
                return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            }
            return true
        }
        if more { return true }
        close()
        return false
    }

    private func deadlinePassed() {
        loop.assertInLoop()
        deadline = nil
        if g_socket_is_closed(socket) != 0 {
            close()
            return
        }
        switch phase {
        case .headers, .body:
            let seconds = (phase == .headers ? limits.headers : limits.body).components.seconds
            refuse(.error(408, "the request did not arrive within \(seconds) s"), head: head)
        case .idle, .writing, .refusing:
            close()
        case .handling, .closed:
            break
        }
    }

    /// Closes the connection and frees it. Idempotent.
    func close() {
        loop.assertInLoop()
        guard phase != .closed else { return }
        phase = .closed
        deadline?.cancel()
        deadline = nil
        removeWatch()
        releaseMessage()
        detachSoup()
        g_socket_close(socket, nil)
        target.connection = nil
        listener?.forget(self)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(socket))
    }

    private func enter(_ next: Phase, deadline limit: Duration?) {
        phase = next
        deadline?.cancel()
        deadline = limit.map { limit in
            loop.schedule(after: limit) { [weak self] in self?.deadlinePassed() }
        }
    }

    private func releaseMessage() {
        guard let message else { return }
        disconnectSignals(of: UnsafeMutableRawPointer(message))
        g_object_unref(UnsafeMutableRawPointer(message))
        self.message = nil
        head = nil
        body = Data()
    }

    func removeWatch() {
        guard let watch else { return }
        g_source_destroy(watch)
        g_source_unref(watch)
        self.watch = nil
    }
}

/// The user data of a connection's C callbacks: each callback holds it (retained, released by
/// the callback's destroy notify), and it names the connection only until that closes.
final class HTTPConnectionTarget {
    weak var connection: HTTPConnection?
}
