import AgentCore
import AgentTransport
import Foundation

/// One WebSocket to a Janus server (subprotocol "janus-protocol"): sends requests with fresh
/// transaction ids, waits for their final replies with a timeout, and routes events to the
/// session or handle named by `session_id` / `sender`.
///
/// An actor: requests come from many tasks, replies from the socket's reader task. The
/// ack/reply/event rules live in ``JanusTransactionTable``.
public actor JanusConnection {
    /// Where an event goes: a handle's stream, or the session's when `handle` is nil.
    private struct Route: Hashable {
        let session: Int64
        let handle: Int64?
    }

    private struct Waiter {
        let continuation: CheckedContinuation<JanusMessage, Error>
        let timer: Task<Void, Never>
        let request: String
    }

    public let url: String
    private let socket: WebSocketClient
    private var table = JanusTransactionTable<Waiter>()
    private var routes: [Route: AsyncStream<JanusMessage>.Continuation] = [:]
    private var token: String?
    private let apiSecret: String?
    private let defaultTimeout: Duration
    private var reader: Task<Void, Never>?
    private var closedBy: JanusError?
    private var transactionCounter: UInt64 = 0
    private let transactionPrefix: String
    /// Events nobody subscribed to, and replies that came after their request gave up.
    public private(set) var unroutedMessages = 0
    public private(set) var malformedMessages = 0

    /// - Parameters:
    ///   - token: a Janus core token (`token_auth`), sent as `"token"` on every request.
    ///   - apiSecret: the server's `api_secret`, sent as `"apisecret"` when set.
    ///   - requestTimeout: how long a request waits for its final reply by default.
    public init(
        url: String, loop: EventLoop, token: String? = nil, apiSecret: String? = nil,
        requestTimeout: Duration = .seconds(10)
    ) {
        self.url = url
        self.token = token
        self.apiSecret = apiSecret
        self.defaultTimeout = requestTimeout
        socket = WebSocketClient(loop: loop)
        transactionPrefix = String(UInt32.random(in: .min ... .max), radix: 36)
    }

    deinit {
        reader?.cancel()
        socket.close(code: 1001)
    }

    /// Opens the WebSocket and starts reading.
    /// - Throws: ``JanusError/connectFailed(reason:)``.
    public func connect(timeout: Duration = .seconds(10)) async throws {
        do {
            try await socket.connect(url: url, protocols: ["janus-protocol"], timeout: timeout)
        } catch let error as WebSocketError {
            if case .connectFailed(let reason) = error { throw JanusError.connectFailed(reason: reason) }
            throw JanusError.connectFailed(reason: "\(error)")
        }
        let events = socket.events
        reader = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.received(event)
            }
            await self?.socketEnded()
        }
    }

    /// Replaces the core token used from the next request on (token renewal).
    public func setToken(_ token: String?) {
        self.token = token
    }

    /// Sends one core request and returns its final reply.
    ///
    /// - Parameters:
    ///   - kind: the `janus` verb; decides which reply is final.
    ///   - cancellable: when true, a cancelled task neither sends nor waits (it throws
    ///     `CancellationError`). False by default, so teardown from a cancelled task (`leave`,
    ///     `destroy`) still reaches the server.
    ///   - fields: extra top-level fields (`plugin`, `body`, `jsep`, `candidate`...).
    /// - Throws: ``JanusError/server(code:reason:)`` for an error reply, ``JanusError/timeout(request:)``,
    ///   ``JanusError/connectionClosed(code:reason:)``.
    public func request(
        _ kind: JanusRequestKind, session: Int64? = nil, handle: Int64? = nil,
        fields: [String: JSONValue] = [:], timeout: Duration? = nil, cancellable: Bool = false
    ) async throws -> JanusMessage {
        if let closedBy { throw closedBy }
        if cancellable { try Task.checkCancellation() }
        transactionCounter += 1
        let transaction = "\(transactionPrefix)-\(transactionCounter)"
        var body = fields
        body["janus"] = .string(kind.rawValue)
        body["transaction"] = .string(transaction)
        if let session { body["session_id"] = .integer(session) }
        if let handle { body["handle_id"] = .integer(handle) }
        if let token { body["token"] = .string(token) }
        if let apiSecret { body["apisecret"] = .string(apiSecret) }
        let text = JSONValue.object(body).serialized()
        let limit = timeout ?? defaultTimeout

        // The body registers and sends within this actor turn, so a cancellation handler that
        // hops here always finds the waiter it is meant to fail.
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let timer = Task { [weak self] in
                    do { try await Task.sleep(for: limit) } catch { return }
                    await self?.expire(transaction)
                }
                table.register(
                    transaction: transaction, kind: kind,
                    waiter: Waiter(continuation: continuation, timer: timer, request: kind.rawValue))
                socket.send(text: text) { [weak self] error in
                    guard let error else { return }
                    Task { await self?.sendFailed(transaction, error) }
                }
            }
        } onCancel: { [weak self] in
            guard cancellable else { return }
            Task { await self?.cancelled(transaction) }
        }
    }

    /// Events for a handle (or, with `handle` nil, session-level events such as `timeout` and
    /// events for handles without their own stream). Replaces an earlier stream for the same route.
    public func events(session: Int64, handle: Int64? = nil) -> AsyncStream<JanusMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: JanusMessage.self, bufferingPolicy: .bufferingOldest(1024))
        let route = Route(session: session, handle: handle)
        routes[route]?.finish()
        if closedBy != nil {
            continuation.finish()
        } else {
            routes[route] = continuation
        }
        return stream
    }

    /// Ends the event stream of a route (handle detached, session destroyed).
    public func removeEvents(session: Int64, handle: Int64? = nil) {
        routes.removeValue(forKey: Route(session: session, handle: handle))?.finish()
    }

    /// Closes the socket; pending requests fail with ``JanusError/connectionClosed(code:reason:)``.
    /// Idempotent.
    public func close() {
        socket.close(code: 1000)
        shutDown(.connectionClosed(code: 1000, reason: "closed locally"))
    }

    /// True until the socket closed or ``close()`` was called.
    public var isOpen: Bool { closedBy == nil && reader != nil }

    // MARK: Incoming

    private func received(_ event: WebSocketEvent) {
        switch event {
        case .text(let text):
            let message: JanusMessage
            do { message = try JanusMessage(parsing: text) } catch {
                malformedMessages += 1
                return
            }
            dispatch(message)
        case .binary:
            malformedMessages += 1
        case .closed(let code, let reason):
            shutDown(.connectionClosed(code: code, reason: reason))
        }
    }

    private func dispatch(_ message: JanusMessage) {
        switch table.classify(message) {
        case .ack:
            break
        case .reply(let waiter, let result):
            waiter.timer.cancel()
            waiter.continuation.resume(with: result)
        case .event(let event):
            route(event)
        case .stray:
            unroutedMessages += 1
        }
    }

    private func route(_ event: JanusMessage) {
        guard let session = event.sessionID else {
            unroutedMessages += 1
            return
        }
        let target = event.sender.flatMap { routes[Route(session: session, handle: $0)] }
            ?? routes[Route(session: session, handle: nil)]
        guard let target else {
            unroutedMessages += 1
            return
        }
        if case .dropped = target.yield(event) { unroutedMessages += 1 }
    }

    private func socketEnded() {
        shutDown(closedBy ?? .connectionClosed(code: 1006, reason: "connection lost"))
    }

    private func shutDown(_ error: JanusError) {
        if closedBy == nil { closedBy = error }
        for waiter in table.removeAll() {
            waiter.timer.cancel()
            waiter.continuation.resume(throwing: closedBy ?? error)
        }
        for continuation in routes.values { continuation.finish() }
        routes = [:]
    }

    private func expire(_ transaction: String) {
        guard let waiter = table.remove(transaction: transaction) else { return }
        waiter.continuation.resume(throwing: JanusError.timeout(request: waiter.request))
    }

    /// The requesting task was cancelled: its waiter stops waiting for the reply.
    private func cancelled(_ transaction: String) {
        guard let waiter = table.remove(transaction: transaction) else { return }
        waiter.timer.cancel()
        waiter.continuation.resume(throwing: CancellationError())
    }

    private func sendFailed(_ transaction: String, _ error: WebSocketError) {
        guard let waiter = table.remove(transaction: transaction) else { return }
        waiter.timer.cancel()
        switch error {
        case .closed(let code, let reason):
            waiter.continuation.resume(throwing: JanusError.connectionClosed(code: code, reason: reason))
        default:
            waiter.continuation.resume(throwing: JanusError.connectionClosed(code: 1006, reason: "\(error)"))
        }
    }
}
