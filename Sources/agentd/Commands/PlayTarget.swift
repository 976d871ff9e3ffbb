import Agent
import Foundation

/// Where `agentd play` publishes: a Janus room (`--server` and `--room`) or a WHIP endpoint
/// (`--whip`), read from the command line with the usage errors (exit 2) of a mix of the two.
struct PlayTarget {
    let endpoint: RoomEndpoint
    /// Which of the error table's wordings applies.
    let platform: JanusFailure.Platform

    /// The options a WHIP endpoint makes meaningless: it names the server, the room and its
    /// access itself.
    static let janusOnly = ["server", "room", "pin", "create"]

    init(_ arguments: ParsedArguments) throws {
        if let whip = try arguments.whipURL() {
            if let other = Self.janusOnly.first(where: { arguments.has($0) || arguments.value($0) != nil }) {
                throw UsageError.conflicting(option: "whip", with: other, why: "a WHIP endpoint names its server and room itself")
            }
            endpoint = .whip(url: whip.absoluteString)
            platform = .whip
            return
        }
        guard let server = try arguments.serverURL() else { throw UsageError.missingRequired(option: "server") }
        guard let room = try arguments.roomName() else { throw UsageError.missingRequired(option: "room") }
        endpoint = .janus(server: server.absoluteString, room: room)
        platform = .janus
    }
}
