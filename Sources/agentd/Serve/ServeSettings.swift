/// What the daemon's jobs take from the config (and flags), resolved once at start.
struct ServeSettings: Sendable {
    var outputRoot: String
    var maxJobs: Int
    /// The Janus URL for requests that name none.
    var defaultServer: String?
    /// Addresses for ICE, resolved from the allow-list.
    var iceAddresses: [String]
    /// Where API bots may read files (a real path); nil: they play no files.
    var mediaRoot: String? = nil
}

/// A request the API refuses, with its status and message.
struct APIError: Error, Equatable, CustomStringConvertible {
    let status: Int
    let message: String

    var description: String { message }

    static func badRequest(_ message: String) -> APIError { APIError(status: 400, message: message) }

    var response: HTTPResponse { .error(status, message) }
}
