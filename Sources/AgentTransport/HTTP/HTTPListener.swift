import CSoup
import Foundation
import Glibc

/// The listening socket of ``HTTPServer`` and its open connections, confined to the server's loop.
///
/// The server accepts connections itself and gives each its own `SoupServer`
/// (``HTTPConnection``) instead of letting one `SoupServer` listen: libsoup 3.2 (Debian 12) never
/// closes a keep-alive connection that the client closes between requests (it reads the EOF and
/// forgets the connection: CLOSE-WAIT, one descriptor each, until the process runs out), and it
/// has no call that closes one client connection. `soup_server_disconnect` on a server of one
/// connection is that call.
final class HTTPListener: @unchecked Sendable {
    // @unchecked Sendable: every var is touched only on `loop` (each method asserts it); `limits`
    // and `handlers` are immutable Sendable values.
    let loop: EventLoop
    let limits: HTTPLimits
    let handlers: HTTPServer.Handlers
    private var socket: UnsafeMutablePointer<GSocket>?
    private var acceptSource: UnsafeMutablePointer<GSource>?
    private var acceptRetry: LoopTimer?
    private var connections: [ObjectIdentifier: (order: Int, connection: HTTPConnection)] = [:]
    private var accepted = 0
    /// Connections closed to stay within ``HTTPLimits/maxConnections``.
    private(set) var evicted = 0
    private var stopped = false

    /// Connections accepted in one wake-up at most, so a flood of connects cannot starve the loop.
    private static let acceptBurst = 64
    /// After accept fails (out of descriptors): wait this long before trying again, instead of
    /// spinning on a socket that stays readable.
    private static let acceptBackoff = Duration.milliseconds(100)

    init(loop: EventLoop, limits: HTTPLimits, handlers: HTTPServer.Handlers) {
        self.loop = loop
        self.limits = limits
        self.handlers = handlers
    }

    func listen(host: String, port: UInt16) throws -> UInt16 {
        loop.assertInLoop()
        guard socket == nil, !stopped else { throw HTTPServer.Failure(description: "the server was started already") }
        guard let address = g_inet_socket_address_new_from_string(host, guint(port)) else {
            throw HTTPServer.Failure(description: "'\(host)' is not an IP address")
        }
        defer { g_object_unref(address) }
        let family = g_socket_address_get_family(address)
        var error: UnsafeMutablePointer<GError>?
        guard let socket = g_socket_new(family, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error) else {
            throw HTTPServer.Failure(description: "cannot create a socket: \(Self.take(error))")
        }
        self.socket = socket
        if family == G_SOCKET_FAMILY_IPV6 { g_socket_set_option(socket, gint(IPPROTO_IPV6), IPV6_V6ONLY, 1, nil) }
        g_socket_set_listen_backlog(socket, 128)
        g_socket_set_blocking(socket, 0)
        guard g_socket_bind(socket, address, 1, &error) != 0, g_socket_listen(socket, &error) != 0 else {
            let reason = Self.take(error)
            stop()
            throw HTTPServer.Failure(description: "cannot listen on \(host):\(port): \(reason)")
        }
        guard let local = g_socket_get_local_address(socket, &error) else {
            let reason = Self.take(error)
            stop()
            throw HTTPServer.Failure(description: "no listening address: \(reason)")
        }
        defer { g_object_unref(local) }
        let bound = g_inet_socket_address_get_port(UnsafeMutablePointer<GInetSocketAddress>(OpaquePointer(local)))
        watchForConnections()
        return bound
    }

    func stop() {
        loop.assertInLoop()
        stopped = true
        acceptRetry?.cancel()
        acceptRetry = nil
        unwatch()
        for entry in connections.values { entry.connection.close() }
        connections = [:]
        if let socket {
            g_socket_close(socket, nil)
            g_object_unref(socket)
            self.socket = nil
        }
    }

    /// Called by a connection once it has closed.
    func forget(_ connection: HTTPConnection) {
        loop.assertInLoop()
        connections[ObjectIdentifier(connection)] = nil
    }

    private func watchForConnections() {
        guard let socket, !stopped, acceptSource == nil, let source = g_socket_create_source(socket, GIOCondition(rawValue: GIOCondition.RawValue(POLLIN)), nil) else { return }
        let ready: @convention(c) (UnsafeMutablePointer<GSocket>?, GIOCondition, gpointer?) -> gboolean = { _, _, data in
            guard let data else { return 0 }
            return Unmanaged<HTTPListener>.fromOpaque(data).takeUnretainedValue().acceptReady() ? 1 : 0
        }
        g_source_set_callback(
            source, unsafeBitCast(ready, to: GSourceFunc.self), Unmanaged.passRetained(self).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<HTTPListener>.fromOpaque(data).release()
            })
        g_source_attach(source, loop.context)
        acceptSource = source
    }

    private func unwatch() {
        guard let acceptSource else { return }
        g_source_destroy(acceptSource)
        g_source_unref(acceptSource)
        self.acceptSource = nil
    }

    /// - Returns: false when the accept source is to go (it is then re-armed after a pause).
    private func acceptReady() -> Bool {
        loop.assertInLoop()
        guard let socket, !stopped else { return false }
        for _ in 0..<Self.acceptBurst {
            var error: UnsafeMutablePointer<GError>?
            guard let client = g_socket_accept(socket, nil, &error) else {
                let wouldBlock = error.map { $0.pointee.domain == g_io_error_quark() && $0.pointee.code == gint(G_IO_ERROR_WOULD_BLOCK.rawValue) } ?? false
                if let error { g_error_free(error) }
                if wouldBlock { return true }
                pauseAccepting()
                return true  // pauseAccepting destroyed the source already
            }
            guard makeRoom() else {
                evicted += 1
                g_socket_close(client, nil)
                g_object_unref(client)
                continue
            }
            let connection = HTTPConnection(socket: client, listener: self)
            g_object_unref(client)
            accepted += 1
            connections[ObjectIdentifier(connection)] = (accepted, connection)
            connection.start()
        }
        return true
    }

    /// Makes room for one more connection if the limit is reached, by closing the oldest one that
    /// is idle or still sending its headers. Returns false when every connection is busy with a
    /// request (the new one is then refused).
    private func makeRoom() -> Bool {
        guard connections.count >= limits.maxConnections else { return true }
        let waiting = connections.values.filter { $0.connection.phase == .idle || $0.connection.phase == .headers }
        guard let oldest = waiting.min(by: { $0.order < $1.order }) else { return false }
        evicted += 1
        oldest.connection.close()  // forgets itself
        return connections.count < limits.maxConnections
    }

    private func pauseAccepting() {
        unwatch()
        acceptRetry = loop.schedule(after: Self.acceptBackoff) { [self] in
            loop.assertInLoop()
            acceptRetry = nil
            watchForConnections()
        }
    }

    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}
