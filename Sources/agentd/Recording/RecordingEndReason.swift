import Agent

/// Why a recording ended.
enum RecordingEndReason: Sendable, Equatable {
    case duration
    /// ``RoomRecordingJob/stop()``: a signal for `agentd record`, a DELETE or a shutdown for the daemon.
    case stopped
    case outputFailed
    /// Out of the room for good: retries given up, refused, or the room destroyed.
    case disconnected(DisconnectReason)

    /// `agentd record --json`'s `stopped_by` (a stop there always comes from a signal).
    var summaryName: String {
        switch self {
        case .stopped: "signal"
        default: name
        }
    }

    /// The daemon's `stopped_by`.
    var name: String {
        switch self {
        case .duration: "duration"
        case .stopped: "request"
        case .outputFailed: "output_failed"
        case .disconnected(.roomDestroyed): "room_destroyed"
        case .disconnected(.refused): "refused"
        case .disconnected: "connection_lost"
        }
    }
}
