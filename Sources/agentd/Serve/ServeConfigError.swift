/// What is wrong with `agentd serve --config FILE`.
enum ServeConfigError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notJSON(reason: String)
    case notAnObject
    case unknownKeys([String])
    case invalid(key: String, expected: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notJSON(let reason): "the config is not JSON: \(reason)"
        case .notAnObject: "the config must be a JSON object"
        case .unknownKeys(let keys):
            "unknown config key(s) \(keys.sorted().joined(separator: ", ")); known: \(ServeConfig.keys.sorted().joined(separator: ", "))"
        case .invalid(let key, let expected): "config key \(key) must be \(expected)"
        }
    }
}
