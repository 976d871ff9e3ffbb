/// Where Redis is: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, as `--redis` takes it.
///
/// The password is a secret: ``display`` hides it, and nothing here logs it.
public struct RedisURL: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let username: String?
    public let password: String?
    public let database: Int

    public static let rule = "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], e.g. redis://127.0.0.1:6379/0"

    public init(host: String, port: Int = 6379, username: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// Nil for anything else than the form in ``rule`` (a bad port, a database over 1000, an
    /// empty host, over 1024 bytes).
    public init?(_ text: String) {
        guard text.utf8.count <= 1024, text.hasPrefix("redis://") else { return nil }
        var rest = Substring(text.dropFirst("redis://".count))
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                username = credentials[..<colon].isEmpty ? nil : String(credentials[..<colon])
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                password = String(credentials)
            }
            if password?.isEmpty == true { password = nil }
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.utf8.count <= 4, let number = Int(path), number >= 0, number <= 1000 else { return nil }
                database = number
            }
        }
        var port = 6379
        if let colon = rest.lastIndex(of: ":") {
            guard let number = Int(rest[rest.index(after: colon)...]), number >= 1, number <= 65535 else { return nil }
            port = number
            rest = rest[..<colon]
        }
        let host = String(rest)
        guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else { return nil }
        self.init(host: host, port: port, username: username, password: password, database: database)
    }

    /// The URL without its password, for logs and API answers.
    public var display: String {
        let credentials = password == nil ? "" : "\(username ?? ""):***@"
        return "redis://\(credentials)\(host):\(port)/\(database)"
    }
}
