/// The Redis keys of one deployment's queue, all under one prefix (`agentd` unless configured),
/// so that several deployments can share a Redis.
public struct JobQueueKeys: Sendable, Equatable {
    public let prefix: String
    /// The jobs waiting or held: one entry per job, in the `workers` consumer group.
    public var stream: String { "\(prefix):jobs" }
    /// Jobs that used up their attempts: `id`, `error`, `attempts`.
    public var deadLetters: String { "\(prefix):dead" }
    /// Job ids by creation time, for listing.
    public var index: String { "\(prefix):index" }
    /// Workers' last reports: name → JSON.
    public var workers: String { "\(prefix):workers" }
    public var jobPrefix: String { "\(prefix):job:" }
    public func job(_ id: String) -> String { jobPrefix + id }

    public static let group = "workers"
    public static let prefixRule = "1 to 64 characters from A-Z a-z 0-9 _ - : ."

    public init?(prefix: String = "agentd") {
        guard (1...64).contains(prefix.utf8.count),
              prefix.utf8.allSatisfy({ JobID.isWordByte($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
        else { return nil }
        self.prefix = prefix
    }
}

extension JobQueueKeys {
    /// The keys under `agentd`.
    public static let standard = JobQueueKeys(prefix: "agentd") ?? JobQueueKeys(uncheckedPrefix: "agentd")

    private init(uncheckedPrefix: String) {
        prefix = uncheckedPrefix
    }
}
