import CAgentShims
import CSoup
import Foundation
import Synchronization

/// A WebSocket client (RFC 6455) over libsoup-3, bound to one ``EventLoop``.
///
/// Foundation's `URLSessionWebSocketTask` does not work on Linux, so signaling goes through
/// libsoup, which is GLib-based like libnice and so shares the transport loops. The `SoupSession`,
/// the upgrade request and the `SoupWebsocketConnection` are created and touched only on the
/// loop thread (whose context is thread-default there, so libsoup attaches its sources to it).
///
/// A client connects once. Incoming messages and the final close arrive on ``events``; the stream
/// finishes after `.closed`. ``close(code:reason:)`` is idempotent and may be called from any
/// thread, at any time, including while connecting.
public final class WebSocketClient: Sendable {
    /// The loop that owns the libsoup objects.
    public let loop: EventLoop
    /// Incoming messages, then one `.closed`, then the end of the stream.
    public let events: AsyncStream<WebSocketEvent>
    private let core: WebSocketClientCore

    /// - Parameters:
    ///   - eventBufferLimit: how many undelivered events are kept; more are dropped and counted
    ///     in ``droppedEvents`` (queues between threads are bounded).
    ///   - maxIncomingPayloadSize: the largest message accepted; libsoup closes with 1009 above it.
    public init(loop: EventLoop, eventBufferLimit: Int = 4096, maxIncomingPayloadSize: Int = 4 << 20) {
        self.loop = loop
        let (stream, continuation) = AsyncStream.makeStream(
            of: WebSocketEvent.self, bufferingPolicy: .bufferingOldest(eventBufferLimit))
        events = stream
        core = WebSocketClientCore(
            loop: loop, sink: continuation, maxIncomingPayloadSize: UInt64(max(0, maxIncomingPayloadSize)))
    }

    deinit {
        // Closing hands the C objects back to the loop, which frees them once libsoup reports the
        // close. If the loop is already shut down the closure never runs and they leak, which is
        // the only safe choice: they may not be touched off their loop.
        let core = self.core
        loop.execute { core.close(code: 1001, reason: "") }
    }

    /// Events dropped because the consumer fell more than `eventBufferLimit` events behind.
    public var droppedEvents: Int { core.droppedEvents.load(ordering: .relaxed) }

    /// Opens the connection and completes the HTTP upgrade handshake (RFC 6455 §4.1).
    ///
    /// - Parameters:
    ///   - url: a `ws://` or `wss://` URL.
    ///   - protocols: offered subprotocols (`Sec-WebSocket-Protocol`), e.g. `["janus-protocol"]`.
    ///   - headers: extra request headers, appended in order.
    ///   - timeout: how long the TCP connect plus handshake may take.
    /// - Throws: ``WebSocketError/connectFailed(reason:)`` when the server cannot be reached,
    ///   refuses the upgrade or does not answer in time; ``WebSocketError/invalidURL(_:)``.
    public func connect(
        url: String,
        protocols: [String] = [],
        headers: [(name: String, value: String)] = [],
        timeout: Duration = .seconds(10)
    ) async throws {
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), scheme == "ws" || scheme == "wss"
        else { throw WebSocketError.invalidURL(url) }
        let request = ConnectRequest(
            url: url, protocols: protocols, headers: headers.map { HeaderField(name: $0.name, value: $0.value) },
            timeoutMilliseconds: UInt32(clamping: timeout.totalMilliseconds))
        let core = self.core
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                loop.execute { core.startConnect(request, continuation: continuation) }
            }
        } onCancel: {
            loop.execute { core.cancelConnect(reason: "connect cancelled") }
        }
    }

    /// The subprotocol the server chose, or nil before the connection opened or if it chose none.
    public func negotiatedProtocol() async -> String? {
        let core = self.core
        return try? await loop.submit { core.negotiatedProtocol() }
    }

    /// Sends one text message. Returns once libsoup has queued it for writing.
    /// - Throws: ``WebSocketError/notConnected`` before open, ``WebSocketError/closed(code:reason:)``
    ///   after close.
    public func send(text: String) async throws {
        let core = self.core
        try await loop.submit { try core.send(text: text) }
    }

    /// Queues one text message without waiting. Messages sent this way from one thread keep
    /// their order (each is one FIFO hop onto the loop). `completion`, if given, runs on the loop
    /// with nil once libsoup queued the message, or the reason it could not.
    public func send(text: String, completion: (@Sendable (WebSocketError?) -> Void)?) {
        let core = self.core
        loop.execute {
            do {
                try core.send(text: text)
                completion?(nil)
            } catch let error as WebSocketError {
                completion?(error)
            } catch {
                completion?(.notConnected)
            }
        }
    }

    /// Starts the close handshake (RFC 6455 §5.5.1), or abandons a connect in progress.
    /// Idempotent; `.closed` arrives on ``events`` when the socket is really closed.
    public func close(code: UInt16 = 1000, reason: String = "") {
        let core = self.core
        loop.execute { core.close(code: code, reason: reason) }
    }
}

private struct HeaderField: Sendable {
    let name: String
    let value: String
}

private struct ConnectRequest: Sendable {
    let url: String
    let protocols: [String]
    let headers: [HeaderField]
    let timeoutMilliseconds: UInt32
}

/// The loop-confined state of a ``WebSocketClient``.
///
/// Every C callback (connect completion, timeout, "message", "closed", "error" signals) holds its
/// own retained reference, released by GLib's destroy notify, so the core outlives every callback
/// that can still reach it even after the public client is gone.
private final class WebSocketClientCore: @unchecked Sendable {
    // @unchecked Sendable: every mutable field below is touched only on `loop`'s thread; each
    // method that touches them calls `loop.assertInLoop()` first. `droppedEvents` is atomic and
    // `sink` (an AsyncStream continuation) is thread-safe.
    let loop: EventLoop
    let sink: AsyncStream<WebSocketEvent>.Continuation
    let droppedEvents = Atomic<Int>(0)
    let maxIncomingPayloadSize: UInt64

    private enum Phase { case idle, connecting, open, closing, closed }
    private var phase = Phase.idle
    private var session: UnsafeMutablePointer<SoupSession>?
    private var message: OpaquePointer?  // SoupMessage*, the upgrade request
    private var connection: OpaquePointer?  // SoupWebsocketConnection*
    private var cancellable: UnsafeMutablePointer<GCancellable>?
    private var timeoutSource: UnsafeMutablePointer<GSource>?
    private var protocolStrings: [UnsafeMutablePointer<CChar>?] = []
    private var pendingConnect: CheckedContinuation<Void, Error>?
    private var connectFailureReason: String?
    private var lastError: String?
    private var closeCode: UInt16 = 0
    private var closeReason = ""
    private var signalHandlers: [gulong] = []

    init(loop: EventLoop, sink: AsyncStream<WebSocketEvent>.Continuation, maxIncomingPayloadSize: UInt64) {
        self.loop = loop
        self.sink = sink
        self.maxIncomingPayloadSize = maxIncomingPayloadSize
    }

    deinit {
        // Only reached after every callback released its reference, i.e. after teardown().
        freeProtocolStrings()
    }

    // MARK: Connect

    func startConnect(_ request: ConnectRequest, continuation: CheckedContinuation<Void, Error>) {
        loop.assertInLoop()
        guard phase == .idle else {
            continuation.resume(throwing: phase == .closed ? WebSocketError.closed(code: closeCode, reason: closeReason)
                                                           : WebSocketError.alreadyUsed)
            return
        }
        guard let message = soup_message_new("GET", request.url) else {
            continuation.resume(throwing: WebSocketError.invalidURL(request.url))
            return
        }
        let requestHeaders = soup_message_get_request_headers(message)
        for header in request.headers {
            soup_message_headers_append(requestHeaders, header.name, header.value)
        }
        self.message = message
        session = soup_session_new()
        cancellable = g_cancellable_new()
        pendingConnect = continuation
        phase = .connecting

        freeProtocolStrings()
        protocolStrings = request.protocols.map { strdup($0) } + [nil]

        let timeout = g_timeout_source_new(request.timeoutMilliseconds)
        g_source_set_callback(
            timeout,
            { data in
                guard let data else { return 0 }
                Unmanaged<WebSocketClientCore>.fromOpaque(data).takeUnretainedValue().connectTimedOut()
                return 0  // G_SOURCE_REMOVE
            },
            Unmanaged.passRetained(self).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<WebSocketClientCore>.fromOpaque(data).release()
            })
        g_source_attach(timeout, loop.context)
        timeoutSource = timeout

        protocolStrings.withUnsafeMutableBufferPointer { protocols in
            soup_session_websocket_connect_async(
                session, message, nil, request.protocols.isEmpty ? nil : protocols.baseAddress,
                G_PRIORITY_DEFAULT, cancellable,
                { _, result, data in
                    guard let data else { return }
                    Unmanaged<WebSocketClientCore>.fromOpaque(data).takeRetainedValue().finishConnect(result)
                },
                Unmanaged.passRetained(self).toOpaque())
        }
    }

    private func connectTimedOut() {
        loop.assertInLoop()
        timeoutSource.map { g_source_unref($0) }
        timeoutSource = nil
        cancelConnect(reason: "timed out")
    }

    func cancelConnect(reason: String) {
        loop.assertInLoop()
        guard phase == .connecting else { return }
        if connectFailureReason == nil { connectFailureReason = reason }
        g_cancellable_cancel(cancellable)
    }

    private func finishConnect(_ result: OpaquePointer?) {
        loop.assertInLoop()
        if let timeoutSource {
            g_source_destroy(timeoutSource)
            g_source_unref(timeoutSource)
            self.timeoutSource = nil
        }
        var error: UnsafeMutablePointer<GError>?
        let connection = soup_session_websocket_connect_finish(session, result, &error)
        let continuation = pendingConnect
        pendingConnect = nil

        guard let connection else {
            var reason = connectFailureReason ?? error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let message {
                let status = soup_message_get_status(message)
                if status.rawValue >= 100 { reason += " (HTTP \(status.rawValue))" }
            }
            if let error { g_error_free(error) }
            phase = .closed
            closeCode = 1006
            closeReason = reason
            continuation?.resume(throwing: WebSocketError.connectFailed(reason: reason))
            teardown()
            return
        }
        if let error { g_error_free(error) }
        self.connection = connection
        guard phase == .connecting, connectFailureReason == nil else {
            // Closed or cancelled while the handshake was finishing: do not hand out the socket.
            let reason = connectFailureReason ?? "closed before the connection opened"
            phase = .closed
            closeCode = 1006
            closeReason = reason
            continuation?.resume(throwing: WebSocketError.connectFailed(reason: reason))
            soup_websocket_connection_close(connection, 1001, nil)
            teardown()
            return
        }
        soup_websocket_connection_set_max_incoming_payload_size(connection, guint64(maxIncomingPayloadSize))
        connectSignals(connection)
        phase = .open
        continuation?.resume()
    }

    func negotiatedProtocol() -> String? {
        loop.assertInLoop()
        guard let connection, let name = soup_websocket_connection_get_protocol(connection) else { return nil }
        return String(cString: name)
    }

    // MARK: Signals

    private typealias MessageHandler = @convention(c) (OpaquePointer?, Int32, OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    private typealias ClosedHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    private typealias ErrorHandler = @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void

    private func connectSignals(_ connection: OpaquePointer) {
        let onMessage: MessageHandler = { _, type, bytes, data in
            guard let data else { return }
            Unmanaged<WebSocketClientCore>.fromOpaque(data).takeUnretainedValue().received(type: type, bytes: bytes)
        }
        let onClosed: ClosedHandler = { _, data in
            guard let data else { return }
            Unmanaged<WebSocketClientCore>.fromOpaque(data).takeUnretainedValue().didClose()
        }
        let onError: ErrorHandler = { _, error, data in
            guard let data else { return }
            let core = Unmanaged<WebSocketClientCore>.fromOpaque(data).takeUnretainedValue()
            core.lastError = error.map { String(cString: $0.pointee.message) }
        }
        signalHandlers = [
            connect(connection, "message", unsafeBitCast(onMessage, to: GCallback.self)),
            connect(connection, "closed", unsafeBitCast(onClosed, to: GCallback.self)),
            connect(connection, "error", unsafeBitCast(onError, to: GCallback.self)),
        ]
    }

    private func connect(_ connection: OpaquePointer, _ signal: String, _ handler: GCallback) -> gulong {
        g_signal_connect_data(
            UnsafeMutableRawPointer(connection), signal, handler, Unmanaged.passRetained(self).toOpaque(),
            { data, _ in
                guard let data else { return }
                Unmanaged<WebSocketClientCore>.fromOpaque(data).release()
            },
            GConnectFlags(rawValue: 0))
    }

    private func received(type: Int32, bytes: OpaquePointer?) {
        loop.assertInLoop()
        guard let bytes else { return }
        var size = 0
        let data = g_bytes_get_data(bytes, &size)
        let buffer = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
        let event: WebSocketEvent
        if type == Int32(SOUP_WEBSOCKET_DATA_TEXT.rawValue) {
            event = .text(String(decoding: buffer, as: UTF8.self))
        } else {
            event = .binary(Array(buffer))
        }
        if case .dropped = sink.yield(event) {
            droppedEvents.add(1, ordering: .relaxed)
        }
    }

    private func didClose() {
        loop.assertInLoop()
        guard let connection, phase != .closed else { return }
        var code = soup_websocket_connection_get_close_code(connection)
        var reason = soup_websocket_connection_get_close_data(connection).map { String(cString: $0) } ?? ""
        if code == 0 {
            code = 1006
            if reason.isEmpty { reason = lastError ?? "connection lost" }
        }
        phase = .closed
        closeCode = code
        closeReason = reason
        // Free on a later turn: the connection is still emitting this very signal.
        loop.execute { self.teardown() }
    }

    // MARK: Send and close

    func send(text: String) throws {
        loop.assertInLoop()
        switch phase {
        case .idle, .connecting:
            throw WebSocketError.notConnected
        case .closing, .closed:
            throw WebSocketError.closed(code: closeCode == 0 ? 1000 : closeCode, reason: closeReason)
        case .open:
            guard let connection else { throw WebSocketError.notConnected }
            // libsoup may have seen the peer go (a server restart) before its "closed" signal
            // reached us; sending then trips its assertion, so ask it first.
            guard soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN else {
                throw WebSocketError.closed(code: 1006, reason: "the connection is closing")
            }
            soup_websocket_connection_send_text(connection, text)
        }
    }

    func close(code: UInt16, reason: String) {
        loop.assertInLoop()
        switch phase {
        case .idle:
            phase = .closed
            closeCode = code
            closeReason = reason
            teardown()
        case .connecting:
            cancelConnect(reason: "closed before the connection opened")
        case .open:
            phase = .closing
            closeCode = code
            closeReason = reason
            guard let connection else { return }
            soup_websocket_connection_close(connection, code, reason.isEmpty ? nil : reason)
        case .closing, .closed:
            break
        }
    }

    /// Frees every C object and ends the event stream. Safe to call more than once.
    private func teardown() {
        loop.assertInLoop()
        if let connection {
            for handler in signalHandlers { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), handler) }
            signalHandlers = []
            g_object_unref(UnsafeMutableRawPointer(connection))
            self.connection = nil
        }
        if let message {
            g_object_unref(UnsafeMutableRawPointer(message))
            self.message = nil
        }
        if let cancellable {
            g_object_unref(cancellable)
            self.cancellable = nil
        }
        if let session {
            soup_session_abort(session)
            g_object_unref(session)
            self.session = nil
        }
        freeProtocolStrings()
        if phase != .closed { phase = .closed }
        sink.yield(.closed(code: closeCode == 0 ? 1000 : closeCode, reason: closeReason))
        sink.finish()
    }

    private func freeProtocolStrings() {
        for string in protocolStrings { free(string) }
        protocolStrings = []
    }
}
