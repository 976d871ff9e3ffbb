/// How a Janus error reads in a log line, a manifest's `error` or a CLI line.
extension JanusError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .server(let code, let reason): "Janus error \(code): \(reason)"
        case .plugin(let code, let reason): "VideoRoom error \(code): \(reason)"
        case .timeout(let request): "Janus did not answer '\(request)' in time"
        case .connectFailed(let reason): "cannot connect to Janus: \(reason)"
        case .connectionClosed(let code, let reason): "Janus closed the connection (\(code)\(reason.isEmpty ? "" : " \(reason)"))"
        case .malformed(let what): "unexpected answer from Janus: \(what)"
        case .gone(let what): "Janus \(what) is gone"
        }
    }
}
