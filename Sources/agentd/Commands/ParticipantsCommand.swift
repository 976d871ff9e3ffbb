import Agent
import Foundation

/// `agentd participants`: list who is in a room. Not in the original contract; it is the smallest
/// useful job the Janus signaling does on its own, and the demo uses it.
enum ParticipantsCommand: Command {
    static let spec = CommandSpec(
        name: "participants",
        summary: "List the participants of a room (display name, id, whether they publish).",
        options: [
            SharedOptions.server, SharedOptions.room, SharedOptions.token,
            .flag("json", "Print the list as JSON on stdout."),
        ],
        notes: [SharedOptions.exitCodeNote]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let url = try arguments.serverURL(), let room = try arguments.roomName() else {
            throw UsageError.missingRequired(option: "server")
        }
        let server = url.absoluteString
        // A loop of the process's group: the command ends with the process, which stops it.
        let loop = context.loops.next()
        let connection = JanusConnection(url: server, loop: loop, token: arguments.value("token"))
        var session: JanusSession?
        do {
            try await connection.connect()
            let created = try await JanusSession.create(on: connection)
            session = created
            let videoRoom = try await VideoRoom.attach(to: created)
            let participants = try await videoRoom.listParticipants(room: room)
            await created.destroy()
            await connection.close()
            report(participants, room: room, json: arguments.has("json"), context: context)
            return .ok
        } catch {
            await session?.destroy()
            await connection.close()
            throw JanusFailure.failure(for: error, server: server, room: room)
        }
    }

    private static func report(_ participants: [VideoRoomParticipant], room: String, json: Bool, context: CommandContext) {
        if json {
            let list: [[String: Any]] = participants.map { ["id": $0.id, "display": $0.display ?? NSNull(), "publisher": $0.publisher] }
            let data = (try? JSONSerialization.data(withJSONObject: ["room": room, "participants": list], options: [.sortedKeys])) ?? Data()
            context.standardOutput(String(decoding: data, as: UTF8.self))
            return
        }
        context.standardOutput("room \(room): \(participants.count) participant\(participants.count == 1 ? "" : "s")")
        for participant in participants {
            let role = participant.publisher ? "publishing" : "not publishing"
            context.standardOutput("  \(participant.display ?? "(no name)")  id=\(participant.id)  \(role)")
        }
    }
}
