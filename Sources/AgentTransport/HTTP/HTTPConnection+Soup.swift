import CAgentShims
import CSoup
import Foundation
import Glibc

/// The C side of ``HTTPConnection``: its `SoupServer`, the libsoup signals it follows, the GLib
/// socket watches, and what it reads out of libsoup's messages.
extension HTTPConnection {
    typealias ServerSignal = @convention(c) (UnsafeMutablePointer<SoupServer>?, OpaquePointer?, gpointer?) -> Void
    typealias MessageSignal = @convention(c) (OpaquePointer?, gpointer?) -> Void
    typealias ChunkSignal = @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void

    /// A `SoupServer` for this socket alone. It also "listens" on the client socket itself: libsoup
    /// keeps a connection alive after a response only while its server has a listener (else every
    /// answer closes, and pipelined requests are dropped), and it takes a connected socket as one.
    /// That listener's accept fails once the client first writes (the socket is no listening one)
    /// and it gives up; it owns no descriptor of its own.
    func attachSoup() -> Bool {
        guard let server = agent_soup_server_new() else { return false }
        self.server = server
        let started: ServerSignal = { _, message, data in
            guard let message, let connection = HTTPConnection.from(data) else { return }
            connection.requestStarted(message)
        }
        let ended: ServerSignal = { _, message, data in
            guard let message, let connection = HTTPConnection.from(data) else { return }
            connection.requestEnded(message)
        }
        connect(UnsafeMutableRawPointer(server), "request-started", unsafeBitCast(started, to: GCallback.self))
        connect(UnsafeMutableRawPointer(server), "request-finished", unsafeBitCast(ended, to: GCallback.self))
        connect(UnsafeMutableRawPointer(server), "request-aborted", unsafeBitCast(ended, to: GCallback.self))
        typealias Handler = @convention(c) (
            UnsafeMutablePointer<SoupServer>?, OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, gpointer?
        ) -> Void
        let handler: Handler = { _, message, _, _, data in
            guard let message, let connection = HTTPConnection.from(data) else { return }
            connection.handle(message)
        }
        soup_server_add_handler(server, nil, handler, retainedTarget(), Self.releaseTarget)

        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen_socket(server, socket, SoupServerListenOptions(rawValue: 0), &error) != 0 else {
            if let error { g_error_free(error) }
            return false
        }
        guard let stream = g_socket_connection_factory_create_connection(socket) else { return false }
        defer { g_object_unref(stream) }
        guard let local = g_socket_get_local_address(socket, nil) else { return false }
        defer { g_object_unref(local) }
        guard let remote = g_socket_get_remote_address(socket, nil) else { return false }
        defer { g_object_unref(remote) }
        let accepted = soup_server_accept_iostream(
            server, UnsafeMutablePointer<GIOStream>(OpaquePointer(stream)), local, remote, &error)
        if let error { g_error_free(error) }
        return accepted != 0
    }

    /// Drops every signal of ours and the server with its connection (which closes the socket).
    func detachSoup() {
        guard let server else { return }
        disconnectSignals(of: UnsafeMutableRawPointer(server))
        soup_server_remove_handler(server, "")
        soup_server_disconnect(server)
        g_object_unref(server)
        self.server = nil
    }

    func connectMessageSignals(_ message: OpaquePointer) {
        let headers: MessageSignal = { message, data in
            guard let message, let connection = HTTPConnection.from(data) else { return }
            connection.gotHeaders(message)
        }
        let chunk: ChunkSignal = { message, chunk, data in
            guard let message, let chunk, let connection = HTTPConnection.from(data) else { return }
            connection.gotChunk(message, chunk)
        }
        let disconnected: MessageSignal = { _, data in
            HTTPConnection.from(data)?.disconnected()
        }
        let instance = UnsafeMutableRawPointer(message)
        connect(instance, "got-headers", unsafeBitCast(headers, to: GCallback.self))
        connect(instance, "got-chunk", unsafeBitCast(chunk, to: GCallback.self))
        connect(instance, "disconnected", unsafeBitCast(disconnected, to: GCallback.self))
    }

    func disconnectSignals(of instance: UnsafeMutableRawPointer) {
        g_signal_handlers_disconnect_matched(instance, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, Unmanaged.passUnretained(target).toOpaque())
    }

    /// A source on the loop that runs `work` while the socket has `condition` and `work` returns
    /// true. It becomes ``watch``; it is removed when `work` returns false or the connection closes.
    func makeSocketWatch(_ condition: GIOCondition, _ work: @escaping (HTTPConnection) -> Bool) -> UnsafeMutablePointer<GSource>? {
        guard let source = g_socket_create_source(socket, condition, nil) else { return nil }
        // Below libsoup's own sources: when both are ready, libsoup reads first.
        g_source_set_priority(source, G_PRIORITY_LOW)
        let box = SocketWatchWork(target: target, source: source, work: work)
        let ready: @convention(c) (UnsafeMutablePointer<GSocket>?, GIOCondition, gpointer?) -> gboolean = { _, _, data in
            guard let data else { return 0 }
            let box = Unmanaged<SocketWatchWork>.fromOpaque(data).takeUnretainedValue()
            guard let connection = box.target?.connection else { return 0 }
            connection.loop.assertInLoop()
            if box.work(connection) { return 1 }
            if connection.watch == box.source { connection.removeWatch() }
            return 0
        }
        g_source_set_callback(
            source, unsafeBitCast(ready, to: GSourceFunc.self), Unmanaged.passRetained(box).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<SocketWatchWork>.fromOpaque(data).release()
            })
        g_source_attach(source, loop.context)
        return source
    }

    /// The request's path without the query, as libsoup decoded it ("/" when empty).
    static func path(of message: OpaquePointer) -> String {
        guard let uri = soup_server_message_get_uri(message), let path = g_uri_get_path(uri) else { return "/" }
        let text = String(cString: path)
        return text.isEmpty ? "/" : text
    }

    /// `response` as HTTP/1.1 bytes that end the connection, for the answers written while libsoup
    /// is paused (a refusal before the body, a timeout).
    static func closingWireBytes(_ response: HTTPResponse) -> [UInt8] {
        let reason = soup_status_get_phrase(guint(clamping: response.status)).map { String(cString: $0) } ?? "Error"
        var text = "HTTP/1.1 \(response.status) \(reason)\r\nContent-Type: \(response.contentType)\r\n"
        text += "Content-Length: \(response.body.count)\r\nConnection: close\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8) + Array(response.body)
    }

    static func from(_ data: gpointer?) -> HTTPConnection? {
        guard let data else { return nil }
        return Unmanaged<HTTPConnectionTarget>.fromOpaque(data).takeUnretainedValue().connection
    }

    private func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback) {
        g_signal_connect_data(
            instance, signal, callback, retainedTarget(),
            { data, _ in
                guard let data else { return }
                Unmanaged<HTTPConnectionTarget>.fromOpaque(data).release()
            }, GConnectFlags(rawValue: 0))
    }

    /// The target, retained once for one callback registration (see ``releaseTarget``).
    private func retainedTarget() -> UnsafeMutableRawPointer {
        // passRetained of the same object yields the same pointer each time, so
        // g_signal_handlers_disconnect_matched finds every registration by it.
        Unmanaged.passRetained(target).toOpaque()
    }

    private static let releaseTarget: @convention(c) (gpointer?) -> Void = { data in
        guard let data else { return }
        Unmanaged<HTTPConnectionTarget>.fromOpaque(data).release()
    }
}

/// What a socket watch runs, with the source it belongs to (to remove only that one).
private final class SocketWatchWork {
    weak var target: HTTPConnectionTarget?
    let source: UnsafeMutablePointer<GSource>
    let work: (HTTPConnection) -> Bool

    init(target: HTTPConnectionTarget, source: UnsafeMutablePointer<GSource>, work: @escaping (HTTPConnection) -> Bool) {
        self.target = target
        self.source = source
        self.work = work
    }
}
