/// The process exit codes of the CLI contract (ARCHITECTURE.md). Scripts depend on these numbers.
enum ExitCode: Int32, Sendable {
    case ok = 0
    case failure = 1
    case usage = 2
    /// Auth, token, pin or a missing room.
    case refused = 3
    /// Signaling, ICE or DTLS could not connect.
    case connectionFailed = 4
    /// Disk or permissions.
    case outputFailed = 5
}

/// An error that ends the command with a contract exit code and one line on stderr:
/// `agentd: error: <what> (<hint>)`.
struct CommandFailure: Error, Equatable, Sendable, CustomStringConvertible {
    let code: ExitCode
    let what: String
    let hint: String?

    init(_ code: ExitCode, _ what: String, hint: String? = nil) {
        self.code = code
        self.what = what
        self.hint = hint
    }

    var line: String { "agentd: error: \(description)" }

    /// `<what> (<hint>)`: the line without its prefix, as a job's error or an API message shows it.
    var description: String {
        hint.map { "\(what) (\($0))" } ?? what
    }
}
