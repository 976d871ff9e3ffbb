import Foundation
import Glibc
import TestSupport

/// A blocking TCP client for the HTTP tests that need what URLSession hides: keep-alive on
/// purpose, pipelining, half-written requests, bodies that are never sent. Every read has a
/// timeout, so a server that does not answer fails the test instead of hanging it.
final class RawHTTPConnection: @unchecked Sendable {
    // @unchecked Sendable: one task may send while another reads; sending touches only the
    // descriptor, and `buffer` and `closed` belong to the reading side (the test's own task).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Response: Equatable {
        let status: Int
        /// Lowercased names.
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout`.
    init(port: UInt16, timeout: Duration = .seconds(5)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        let seconds = timeout.components.seconds
        var interval = timeval(tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "connect to port \(port): \(reason)")
        }
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Stops sending (the server sees EOF) but keeps reading.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    @available(*, noasync, message: "blocks until the server answers: use the async form (sending, response, eof)")
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    @available(*, noasync, message: "blocks until the server answers: use the async form (sending, response, eof)")
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads one response. `bodyless`: the answer to a HEAD (Content-Length describes a body that
    /// is not sent).
    @available(*, noasync, message: "blocks until the server answers: use the async form (sending, response, eof)")
    func readResponse(bodyless: Bool = false) throws -> Response {
        let end = try readUntilHeaderEnd()
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure(description: "not a status line: \(head.prefix(80))")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { try fill() }
        let body = Data(buffer[..<length])
        buffer.removeFirst(length)
        return Response(status: status, headers: headers, body: body)
    }

    /// True when the server closed the connection (EOF) before `timeout` with nothing more sent.
    @available(*, noasync, message: "blocks until the server answers: use the async form (sending, response, eof)")
    func readsEOF() throws -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count == 0 { return true }
        if count > 0 { buffer.append(byte) }
        return false
    }

    /// True when a read would not block now (data, EOF or an error is waiting).
    var hasInput: Bool {
        guard buffer.isEmpty else { return true }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    private func readUntilHeaderEnd() throws -> Int {
        let marker: [UInt8] = [13, 10, 13, 10]
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                for index in searchFrom...(buffer.count - 4) where Array(buffer[index..<index + 4]) == marker { return index }
                searchFrom = buffer.count - 3
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBufferPointer { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
        } else if count == 0 {
            throw Failure(description: "the server closed the connection")
        } else {
            throw Failure(description: "recv: \(String(cString: strerror(errno)))")
        }
    }
}

/// The blocking calls on a thread of their own (``onOwnThread(_:)``), for tests whose server runs
/// in the test process and needs the cooperative pool to answer.
extension RawHTTPConnection {
    func sending(_ text: String) async throws { try await sending(Array(text.utf8)) }
    func sending(_ bytes: [UInt8]) async throws { try await onOwnThread { try self.send(bytes) } }
    func response(bodyless: Bool = false) async throws -> Response { try await onOwnThread { try self.readResponse(bodyless: bodyless) } }
    func eof() async throws -> Bool { try await onOwnThread { try self.readsEOF() } }
}
