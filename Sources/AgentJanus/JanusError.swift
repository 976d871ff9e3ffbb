/// Why a Janus request failed. Server and plugin errors keep Janus's numeric code, so callers
/// can tell "unauthorized" (403) from "no such room" (426) without parsing text.
public enum JanusError: Error, Equatable, Sendable {
    /// The Janus core refused the request: `{"janus":"error","error":{"code","reason"}}`.
    case server(code: Int, reason: String)
    /// The plugin refused it: `plugindata.data` carried `error_code` and `error`.
    case plugin(code: Int, reason: String)
    /// No final reply within the request timeout.
    case timeout(request: String)
    /// The WebSocket could not be opened.
    case connectFailed(reason: String)
    /// The WebSocket closed while the request was pending, or before it was sent.
    case connectionClosed(code: UInt16, reason: String)
    /// A reply that is not the JSON Janus documents (never trapped on).
    case malformed(String)
    /// The session or handle was already destroyed/detached locally.
    case gone(String)

    /// The Janus or plugin error code, when there is one.
    public var code: Int? {
        switch self {
        case .server(let code, _), .plugin(let code, _): return code
        default: return nil
        }
    }

    /// Well-known codes (Janus core `JANUS_ERROR_*`, VideoRoom `JANUS_VIDEOROOM_ERROR_*`).
    public enum Code {
        /// Core: missing or wrong token / API secret.
        public static let unauthorized = 403
        /// Core: the token does not grant this plugin.
        public static let unauthorizedPlugin = 405
        public static let sessionNotFound = 458
        public static let handleNotFound = 459
        public static let pluginNotFound = 460
        /// VideoRoom: the room does not exist.
        public static let noSuchRoom = 426
        /// VideoRoom: create with an id that is taken.
        public static let roomExists = 427
        public static let noSuchFeed = 428
        /// VideoRoom: wrong pin, secret or room token.
        public static let roomUnauthorized = 433
        public static let publishersFull = 432
        public static let alreadyJoined = 425
        public static let joinFirst = 424
    }
}
