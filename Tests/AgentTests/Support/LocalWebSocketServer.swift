import Agent
import CAgentShims
import CSoup
import Foundation
import Synchronization

/// A test-only WebSocket server: a libsoup `SoupServer` on 127.0.0.1 with an ephemeral port.
///
/// Every text message a client sends is passed to `respond`, and each string it returns is sent
/// back on the same connection. An echo server returns `[message]`; a scripted fake Janus parses
/// the request and returns its replies. All libsoup calls run on `loop`.
final class LocalWebSocketServer: @unchecked Sendable {
    // @unchecked Sendable: `port` is set once in init; everything else is touched only on `loop`
    // (each entry point goes through loop.sync / loop.execute).
    let loop: EventLoop
    let port: UInt16
    private let core: ServerCore

    var url: String { "ws://127.0.0.1:\(port)/" }

    init(loop: EventLoop, protocols: [String] = [], respond: @escaping @Sendable (String) -> [String]) throws {
        self.loop = loop
        let core = ServerCore(loop: loop, respond: respond)
        self.core = core
        port = try loop.sync { try core.start(protocols: protocols) }
    }

    /// Messages the server received so far, in order.
    var received: [String] { core.receivedLog.withLock { $0 } }

    /// Number of clients whose socket is currently open.
    var openConnections: Int { (try? loop.sync { [core] in core.connections.count }) ?? 0 }

    private let stopped = Atomic<Bool>(false)

    /// Closes every client (1001) and stops listening. Idempotent; must run before the loop
    /// shuts down (the deinit call is then a no-op).
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let core = self.core
        try? loop.sync { core.stop() }
    }

    /// Closes all open client connections with `code`, keeping the listener.
    func closeClients(code: UInt16, reason: String) {
        let core = self.core
        try? loop.sync { core.closeClients(code: code, reason: reason) }
    }

    deinit { stop() }
}

private final class ServerCore: @unchecked Sendable {
    // @unchecked Sendable: `server` and `connections` are touched only on `loop` (asserted);
    // `receivedLog` is a Mutex.
    let loop: EventLoop
    let respond: @Sendable (String) -> [String]
    let receivedLog = Mutex<[String]>([])
    var server: UnsafeMutablePointer<SoupServer>?
    var connections: [OpaquePointer] = []

    init(loop: EventLoop, respond: @escaping @Sendable (String) -> [String]) {
        self.loop = loop
        self.respond = respond
    }

    struct StartError: Error { let reason: String }

    func start(protocols: [String]) throws -> UInt16 {
        loop.assertInLoop()
        guard let server = agent_soup_server_new() else { throw StartError(reason: "soup_server_new") }
        self.server = server
        var protocolStrings: [UnsafeMutablePointer<CChar>?] = protocols.map { strdup($0) } + [nil]
        defer { for string in protocolStrings { free(string) } }
        typealias Handler = @convention(c) (
            UnsafeMutablePointer<SoupServer>?, OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?,
            UnsafeMutableRawPointer?
        ) -> Void
        let handler: Handler = { _, _, _, connection, data in
            guard let connection, let data else { return }
            Unmanaged<ServerCore>.fromOpaque(data).takeUnretainedValue().accepted(connection)
        }
        protocolStrings.withUnsafeMutableBufferPointer { buffer in
            soup_server_add_websocket_handler(
                server, "/", nil, protocols.isEmpty ? nil : buffer.baseAddress, handler,
                Unmanaged.passRetained(self).toOpaque(),
                { data in
                    guard let data else { return }
                    Unmanaged<ServerCore>.fromOpaque(data).release()
                })
        }
        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen_local(server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "listen failed"
            if let error { g_error_free(error) }
            throw StartError(reason: reason)
        }
        let uris = soup_server_get_uris(server)
        defer { g_slist_free_full(uris) { g_uri_unref(OpaquePointer($0)) } }
        guard let first = uris?.pointee.data else { throw StartError(reason: "no listening URI") }
        return UInt16(clamping: g_uri_get_port(OpaquePointer(first)))
    }

    private func accepted(_ connection: OpaquePointer) {
        loop.assertInLoop()
        g_object_ref(UnsafeMutableRawPointer(connection))
        connections.append(connection)
        soup_websocket_connection_set_max_incoming_payload_size(connection, 16 << 20)
        typealias MessageHandler = @convention(c) (OpaquePointer?, Int32, OpaquePointer?, UnsafeMutableRawPointer?) -> Void
        typealias ClosedHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
        let onMessage: MessageHandler = { connection, type, bytes, data in
            guard let connection, let bytes, let data else { return }
            var size = 0
            let pointer = g_bytes_get_data(bytes, &size)
            let text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : size), as: UTF8.self)
            Unmanaged<ServerCore>.fromOpaque(data).takeUnretainedValue().received(text, on: connection)
        }
        let onClosed: ClosedHandler = { connection, data in
            guard let connection, let data else { return }
            Unmanaged<ServerCore>.fromOpaque(data).takeUnretainedValue().closed(connection)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // The connections are released in stop() before the core can go away, so unretained is enough.
        agent_g_signal_connect(UnsafeMutableRawPointer(connection), "message", unsafeBitCast(onMessage, to: GCallback.self), me)
        agent_g_signal_connect(UnsafeMutableRawPointer(connection), "closed", unsafeBitCast(onClosed, to: GCallback.self), me)
    }

    private func received(_ text: String, on connection: OpaquePointer) {
        loop.assertInLoop()
        receivedLog.withLock { $0.append(text) }
        for reply in respond(text) where soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN {
            soup_websocket_connection_send_text(connection, reply)
        }
    }

    private func closed(_ connection: OpaquePointer) {
        loop.assertInLoop()
        guard let index = connections.firstIndex(of: connection) else { return }
        connections.remove(at: index)
        let handle = UncheckedPointer(connection)
        loop.execute { [self] in release(handle.pointer) }
    }

    private func release(_ connection: OpaquePointer) {
        g_signal_handlers_disconnect_matched(
            UnsafeMutableRawPointer(connection), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
            Unmanaged.passUnretained(self).toOpaque())
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    func closeClients(code: UInt16, reason: String) {
        loop.assertInLoop()
        for connection in connections { soup_websocket_connection_close(connection, code, reason) }
    }

    func stop() {
        loop.assertInLoop()
        for connection in connections {
            if soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN {
                soup_websocket_connection_close(connection, 1001, nil)
            }
            release(connection)
        }
        connections = []
        if let server {
            soup_server_disconnect(server)
            soup_server_remove_handler(server, "/")
            g_object_unref(server)
            self.server = nil
        }
    }
}

/// A C pointer carried across one `loop.execute` hop back onto the same loop.
private struct UncheckedPointer: @unchecked Sendable {
    // @unchecked Sendable: created on the loop and only dereferenced on that same loop.
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
