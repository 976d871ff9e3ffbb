import Agent
import AgentdCore
import Foundation
import Recorder

/// Everything `agentd record` decided from its flags, checked before anything joins a room.
struct RecordPlan: Sendable {
    let recording: RecordingRequest
    let json: Bool
    /// The command line, for the ICE options (resolved by ``ice()`` when the job starts).
    private let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        guard let url = try arguments.serverURL() else { throw UsageError.missingRequired(option: "server") }
        guard let room = try arguments.roomName() else { throw UsageError.missingRequired(option: "room") }
        let duration = try arguments.seconds("duration")
        let formats: RecordingFormats
        if let text = arguments.value("formats") {
            do {
                formats = try RecordingFormats(parsing: text)
            } catch {
                throw UsageError.invalidValue(option: "formats", value: text, expected: "a list of webm,wav,ogg,mix,data,composite")
            }
        } else {
            formats = .default
        }
        let composite = try Self.compositeSettings(arguments)
        let startedAt = Date()
        let out = arguments.value("out")
        if let out, out.isEmpty {
            throw UsageError.invalidValue(option: "out", value: out, expected: "a directory (it is empty)")
        }
        recording = RecordingRequest(
            server: url.absoluteString, room: room, display: try arguments.displayName() ?? RecordingRequest.defaultDisplay,
            credentials: RoomCredentials(token: arguments.value("token"), pin: arguments.value("pin")), create: arguments.has("create"),
            duration: duration, formats: formats,
            directory: out.map { RecordingDirectory(path: $0) } ?? RecordingDirectory(room: room, startedAt: startedAt),
            existing: arguments.has("overwrite") ? .overwrite : .refuseRecording, startedAt: startedAt, composite: composite)
        json = arguments.has("json")
        self.arguments = arguments
    }

    /// The ICE settings: the allow-list resolved to addresses, the servers, credentials, policy.
    func ice() throws -> RoomJoinPatch {
        try SharedOptions.ice(arguments)
    }
}
