/// How a WebSocket failure reads to a person (it ends up in "cannot reach Janus" lines).
extension WebSocketError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidURL(let url): "'\(url)' is not a WebSocket URL"
        case .connectFailed(let reason): reason
        case .closed(let code, let reason): "the WebSocket closed (\(code)\(reason.isEmpty ? "" : " \(reason)"))"
        case .notConnected: "the WebSocket is not connected"
        case .alreadyUsed: "the WebSocket client was used already"
        }
    }
}
