import Agent
import AgentdCore
import Foundation

/// `agentd serve --config FILE`: a JSON object with these keys, all optional.
///
///     {"output_root": "/var/lib/agentd/recordings", "max_jobs": 4, "server": "ws://janus:8188/",
///      "ice_allow": "eth0", "api_token": "…", "log_format": "json", "listen": "127.0.0.1:8080",
///      "media_root": "/srv/agentd/media", "ice_servers": ["turn:192.0.2.10:3478?transport=udp"],
///      "ice_username": "agentd", "ice_credential": "…", "ice_policy": "relay"}
///
/// Unknown keys are an error (a misspelt key silently ignored is worse).
struct ServeConfig: Sendable, Equatable {
    static let keys: Set<String> = [
        "output_root", "max_jobs", "server", "ice_allow", "api_token", "log_format", "listen", "media_root",
        "ice_servers", "ice_username", "ice_credential", "ice_policy", "redis",
    ]

    /// Where recordings go: `<output_root>/<room>-<UTC stamp>/`, or `<output_root>/<out>/`.
    var outputRoot = "./recordings"
    /// Jobs (recordings and bots) that may run at once; more are refused with 429.
    var maxJobs = 4
    /// The Janus WebSocket URL used when a request names none.
    var server: String?
    /// Interfaces or IPv4 addresses for ICE, as `--ice-allow` takes them (comma-separated).
    var iceAllow: String?
    /// The bearer token for /v1; AGENTD_API_TOKEN wins over it.
    var apiToken: String?
    var logFormat = ServeLog.Format.text
    /// `HOST:PORT`; `--listen` wins over it.
    var listen: String?
    /// The directory API bots may play files from (``RecipeMediaRoot``); without it they play none.
    var mediaRoot: String?
    /// STUN and TURN server URIs, comma-separated, as `--ice-server` takes them.
    var iceServers: String?
    /// The TURN servers' username and password: secrets, redacted in every log line.
    var iceUsername: String?
    var iceCredential: String?
    /// `all` or `relay`, as `--ice-policy` takes it.
    var icePolicy: String?
    /// `redis://…` of the job queue (`serve` queues there, `worker` takes from there); `--redis`
    /// wins over it. Its password is a secret, redacted in every log line.
    var redis: String?

    init() {}

    init(path: String) throws(ServeConfigError) {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: 1 << 20)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        try self.init(parsing: data)
    }

    init(parsing data: Data) throws(ServeConfigError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw .notJSON(reason: ErrorText.jsonReason(error))
        }
        guard let object = value.objectValue else { throw .notAnObject }
        let unknown = object.keys.filter { !Self.keys.contains($0) }
        guard unknown.isEmpty else { throw .unknownKeys(unknown) }
        if let root = object["output_root"] {
            guard let text = root.stringValue, !text.isEmpty else { throw .invalid(key: "output_root", expected: "a directory path") }
            outputRoot = text
        }
        if let jobs = object["max_jobs"] {
            guard let count = jobs.integerValue, count >= 1, count <= 1000 else { throw .invalid(key: "max_jobs", expected: "an integer from 1 to 1000") }
            maxJobs = Int(count)
        }
        server = try Self.string(object, "server", expected: "a ws:// or wss:// URL")
        if let server, JanusURL.parse(server) == nil { throw .invalid(key: "server", expected: "a ws:// or wss:// URL") }
        iceAllow = try Self.list(object, "ice_allow", expected: "a list of interface names or IPv4 addresses")
        apiToken = try Self.string(object, "api_token", expected: "a non-empty string")
        if let format = object["log_format"] {
            guard let parsed = format.stringValue.flatMap(ServeLog.Format.init(rawValue:)) else {
                throw .invalid(key: "log_format", expected: "\"text\" or \"json\"")
            }
            logFormat = parsed
        }
        listen = try Self.string(object, "listen", expected: "HOST:PORT")
        mediaRoot = try Self.string(object, "media_root", expected: "a directory path")
        iceServers = try Self.list(object, "ice_servers", expected: "a list of turn: or stun: URIs")
        iceUsername = try Self.string(object, "ice_username", expected: "a non-empty string")
        iceCredential = try Self.string(object, "ice_credential", expected: "a non-empty string")
        icePolicy = try Self.string(object, "ice_policy", expected: "\"all\" or \"relay\"")
        redis = try Self.string(object, "redis", expected: "a redis:// URL")
    }

    /// A list of strings, or one comma-separated string, joined with commas.
    private static func list(_ object: [String: JSONValue], _ key: String, expected: String) throws(ServeConfigError) -> String? {
        guard case .array(let items)? = object[key] else { return try string(object, key, expected: expected) }
        let texts = items.compactMap(\.stringValue)
        guard texts.count == items.count else { throw .invalid(key: key, expected: expected) }
        return texts.joined(separator: ",")
    }

    private static func string(_ object: [String: JSONValue], _ key: String, expected: String) throws(ServeConfigError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.stringValue, !text.isEmpty else { throw .invalid(key: key, expected: expected) }
        return text
    }
}
