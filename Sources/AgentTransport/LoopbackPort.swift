import Glibc

/// TCP ports on 127.0.0.1 for the servers our tests and benchmarks start (redis-server) or hold
/// (a listener that never answers).
public enum LoopbackPort {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A port nobody listens on now (bound to port 0, read back, released). Another process may
    /// take it before it is used; callers start their server and check it answers.
    public static func free() throws(Failure) -> Int {
        let (descriptor, port) = try bound()
        close(descriptor)
        return port
    }

    /// A socket bound to 127.0.0.1 on a port of the system's choosing, listening with `backlog`
    /// when given; the caller closes it.
    public static func bound(listening backlog: Int32? = nil) throws(Failure) -> (descriptor: Int32, port: Int) {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                Glibc.bind(descriptor, raw, length) == 0 && (backlog.map { listen(descriptor, $0) == 0 } ?? true)
                    && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard ready else {
            let failure = Failure(description: "bind: errno \(errno)")
            close(descriptor)
            throw failure
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
