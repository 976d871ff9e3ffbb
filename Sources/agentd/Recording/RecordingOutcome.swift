import AgentdCore
import Recorder

/// How a recording ended, once every file is final.
struct RecordingOutcome: Sendable {
    let request: RecordingRequest
    let manifest: RecordingManifest
    let reason: RecordingEndReason
    /// The recorder's last figures (participants, bytes, drops).
    let progress: RoomRecorderProgress
    let outputError: RoomRecorderError?

    /// A file or the manifest could not be written (the CLI's exit 5).
    var outputFailure: CommandFailure? {
        outputError.map { CommandFailure(.outputFailed, $0.description, hint: "files so far are in \(request.directory.path)") }
    }

    /// The connection ended for good before the recording did (the CLI's exit 4, or 3 when refused).
    var connectionFailure: CommandFailure? {
        switch reason {
        case .disconnected(.gaveUp(let why)):
            CommandFailure(.connectionFailed, "lost the connection to Janus and gave up reconnecting: \(why)",
                           hint: "the recording so far is in \(request.directory.path)")
        case .disconnected(.refused(let why)):
            CommandFailure(.refused, "Janus refused us while reconnecting: \(why)",
                           hint: "the recording so far is in \(request.directory.path)")
        default:
            nil
        }
    }

    /// Either failure, output first: what makes a daemon job `failed`.
    var failure: CommandFailure? { outputFailure ?? connectionFailure }
}
