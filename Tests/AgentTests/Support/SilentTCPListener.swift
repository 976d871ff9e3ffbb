import Foundation
import Synchronization

/// A TCP socket on 127.0.0.1 that listens but never reads or answers: the kernel completes the
/// TCP handshake from the backlog, so a client gets connected and then waits forever. Used to
/// test handshake timeouts.
final class SilentTCPListener: Sendable {
    struct SetupError: Error { let step: String; let errno: Int32 }

    let port: UInt16
    private let descriptor: Atomic<Int32>

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError(step: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SetupError(step: "bind/listen", errno: code)
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SetupError(step: "getsockname", errno: code)
        }
        descriptor = Atomic(fd)
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Idempotent.
    func close() {
        let fd = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { Glibc.close(fd) }
    }

    deinit { close() }
}
