import Agent
import CAgentShims
import CSoup
import Foundation

/// A small HTTP/1.1 server on libsoup's `SoupServer`, bound to one ``EventLoop``.
///
/// libsoup reads each request whole on the loop; the server copies it into an ``HTTPRequest``,
/// pauses the message, and runs `handler` on a task, so a slow handler (stopping a recording)
/// never blocks the loop. The answer is written back on the loop.
final class HTTPServer: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let loop: EventLoop
    private let core: HTTPServerCore

    init(loop: EventLoop, handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.loop = loop
        core = HTTPServerCore(loop: loop, handler: handler)
    }

    /// Listens on `host` (an IPv4 or IPv6 literal) and `port` (0: any free port).
    /// - Returns: the port actually bound.
    func listen(host: String, port: UInt16) throws -> UInt16 {
        let core = self.core
        return try loop.sync { try core.listen(host: host, port: port) }
    }

    /// Stops listening and drops open connections; answers still being computed are discarded.
    /// Idempotent.
    func stop() {
        let core = self.core
        try? loop.sync { core.stop() }
    }
}

/// A `SoupServerMessage*` carried from the loop to a handler task and back; only dereferenced on
/// the loop.
private struct PendingMessage: @unchecked Sendable {
    // @unchecked Sendable: created on the loop, which holds a reference (g_object_ref) until
    // `HTTPServerCore.respond` (back on the loop, asserted) releases it.
    let pointer: OpaquePointer
}

/// The loop-confined part of ``HTTPServer``.
private final class HTTPServerCore: @unchecked Sendable {
    // @unchecked Sendable: `server` and `stopped` are touched only on `loop` (every method
    // asserts it); `handler` is an immutable Sendable closure.
    let loop: EventLoop
    let handler: @Sendable (HTTPRequest) async -> HTTPResponse
    private var server: UnsafeMutablePointer<SoupServer>?
    private var stopped = false

    init(loop: EventLoop, handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.loop = loop
        self.handler = handler
    }

    func listen(host: String, port: UInt16) throws -> UInt16 {
        loop.assertInLoop()
        guard server == nil, !stopped else { throw HTTPServer.Failure(description: "the server was started already") }
        guard let address = g_inet_socket_address_new_from_string(host, guint(port)) else {
            throw HTTPServer.Failure(description: "'\(host)' is not an IP address")
        }
        defer { g_object_unref(address) }
        guard let server = agent_soup_server_new() else { throw HTTPServer.Failure(description: "cannot create the server") }
        self.server = server
        typealias Callback = @convention(c) (
            UnsafeMutablePointer<SoupServer>?, OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutableRawPointer?
        ) -> Void
        let callback: Callback = { _, message, path, _, data in
            guard let message, let data else { return }
            Unmanaged<HTTPServerCore>.fromOpaque(data).takeUnretainedValue().received(message, path: path.map { String(cString: $0) } ?? "/")
        }
        soup_server_add_handler(
            server, nil, callback, Unmanaged.passRetained(self).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<HTTPServerCore>.fromOpaque(data).release()
            })
        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen(server, address, SoupServerListenOptions(rawValue: 0), &error) != 0 else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "listen failed"
            if let error { g_error_free(error) }
            stop()
            throw HTTPServer.Failure(description: "cannot listen on \(host):\(port): \(reason)")
        }
        let uris = soup_server_get_uris(server)
        defer { g_slist_free_full(uris) { g_uri_unref(OpaquePointer($0)) } }
        guard let first = uris?.pointee.data else { throw HTTPServer.Failure(description: "no listening address") }
        return UInt16(clamping: g_uri_get_port(OpaquePointer(first)))
    }

    private func received(_ message: OpaquePointer, path: String) {
        loop.assertInLoop()
        let request = HTTPRequest(
            method: soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET", path: path,
            headers: Self.headers(soup_server_message_get_request_headers(message)),
            body: Self.body(soup_server_message_get_request_body(message)))
        g_object_ref(UnsafeMutableRawPointer(message))
        soup_server_message_pause(message)
        let pending = PendingMessage(pointer: message)
        let handler = self.handler
        Task {
            let response = await handler(request)
            loop.execute { self.respond(pending, response) }
        }
    }

    private func respond(_ pending: PendingMessage, _ response: HTTPResponse) {
        loop.assertInLoop()
        let message = pending.pointer
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        guard !stopped else { return }
        soup_server_message_set_status(message, guint(response.status), nil)
        let headers = soup_server_message_get_response_headers(message)
        for (name, value) in response.headers { soup_message_headers_replace(headers, name, value) }
        response.body.withUnsafeBytes { bytes in
            soup_server_message_set_response(
                message, response.contentType, SOUP_MEMORY_COPY, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(bytes.count))
        }
        soup_server_message_unpause(message)
    }

    func stop() {
        loop.assertInLoop()
        stopped = true
        guard let server else { return }
        soup_server_disconnect(server)
        soup_server_remove_handler(server, "")
        g_object_unref(server)
        self.server = nil
    }

    private static func headers(_ headers: OpaquePointer?) -> [String: String] {
        final class Collected { var values: [String: String] = [:] }
        let collected = Collected()
        guard let headers else { return [:] }
        withExtendedLifetime(collected) {
            soup_message_headers_foreach(
                headers,
                { name, value, data in
                    guard let name, let value, let data else { return }
                    Unmanaged<Collected>.fromOpaque(data).takeUnretainedValue().values[String(cString: name).lowercased()] = String(cString: value)
                }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }

    private static func body(_ body: UnsafeMutablePointer<SoupMessageBody>?) -> Data {
        guard let body, let bytes = soup_message_body_flatten(body) else { return Data() }
        defer { g_bytes_unref(bytes) }
        var size = 0
        guard let data = g_bytes_get_data(bytes, &size), size > 0 else { return Data() }
        return Data(bytes: data, count: size)
    }
}
