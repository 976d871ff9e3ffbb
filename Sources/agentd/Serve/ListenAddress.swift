/// `--listen HOST:PORT`: an IPv4 literal, or an IPv6 one in brackets (`[::1]:8080`); `localhost`
/// means 127.0.0.1. Port 0 asks for any free port.
struct ListenAddress: Sendable, Equatable {
    static let `default` = ListenAddress(host: "127.0.0.1", port: 8080)

    let host: String
    let port: UInt16

    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        guard !host.isEmpty else { return nil }
        self.init(host: host, port: port)
    }

    /// `http://HOST:PORT` with `port` (the one actually bound).
    func url(port: UInt16) -> String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }
}
