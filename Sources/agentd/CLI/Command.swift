import Agent

/// One `agentd <name>` command: its spec (flags and help) and what it does.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// Runs with arguments the parser has already checked against `spec`.
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
}

/// What a running command may use from its surroundings; tests supply their own.
struct CommandContext: Sendable {
    let environment: [String: String]
    let standardOutput: @Sendable (String) -> Void
    let standardError: @Sendable (String) -> Void
    /// The process's transport loops: every engine the command makes runs on them (one loop
    /// per engine, in turn), never on loops of its own. Only their owner stops them.
    let loops: LoopGroup
}

/// Options shared by every command that joins a room.
enum SharedOptions {
    static let server = OptionSpec.value("server", "WS_URL", "Janus WebSocket URL, e.g. ws://10.77.0.2:8188/.", required: true)
    static let room = OptionSpec.value("room", "ROOM", "Room id (a string: [A-Za-z0-9_-]{1,64}).", required: true)
    static let token = OptionSpec.value("token", "T", "Janus core token, sent on every request.")
    static let pin = OptionSpec.value("pin", "P", "Room pin, sent in the join.")
    static let create = OptionSpec.flag("create", "Create the room if it does not exist (otherwise a missing room is an error).")
    static let duration = OptionSpec.value("duration", "SEC", "Stop cleanly after SEC seconds (at most 604800, 7 days).")
    static let iceAllow = OptionSpec.value(
        "ice-allow", "LIST",
        "Interface names or IPv4 addresses to gather ICE candidates on, comma-separated. Default: every interface that is up except loopback.",
        environment: "AGENTD_ICE_ALLOW")

    /// Resolves `--ice-allow` (already merged with AGENTD_ICE_ALLOW by the parser) to addresses;
    /// no list means every interface that is up except loopback. A bad list is a usage error.
    static func iceAddresses(_ text: String?) throws -> [String] {
        do {
            let list = try text.map { value throws(ICEAllowListError) in try ICEAllowList(parsing: value) } ?? .allNonLoopback
            return try list.resolve()
        } catch {
            throw CommandFailure(.usage, "--ice-allow: \(error)", hint: "name an interface that is up, or one of its IPv4 addresses")
        }
    }

    static let exitCodeNote =
        "exit codes: 0 ok, 2 usage, 3 refused (auth, token, pin, room missing), 4 connection failed, 5 output failed, 1 other."
}
