import Agent

/// Why a recording ended.
enum RecordingEndReason: Sendable, Equatable {
    case duration
    /// ``RoomRecordingJob/stop()``: a signal for `agentd record`, a DELETE or a shutdown for the daemon.
    case stopped
    case outputFailed
    /// Out of the room for good: retries given up, refused, or the room destroyed.
    case disconnected(DisconnectReason)
    /// `--max-duration` or `--max-bytes` (``RecordingLimits``).
    case limit(Limit)
    /// No one published for `--idle-timeout` seconds.
    case idle

    enum Limit: String, Sendable, Equatable {
        case duration = "max_duration"
        case bytes = "max_bytes"
    }

    /// `agentd record --json`'s `stopped_by` (a stop there always comes from a signal).
    var summaryName: String { name(stoppedAs: "signal") }

    /// The daemon's `stopped_by`.
    var name: String { name(stoppedAs: "request") }

    /// `stopped_by`, where a ``stopped`` recording reads `stoppedAs` (who asked differs by caller).
    func name(stoppedAs: String) -> String {
        switch self {
        case .duration: "duration"
        case .stopped: stoppedAs
        case .outputFailed: "output_failed"
        case .disconnected(.roomDestroyed): "room_destroyed"
        case .disconnected(.refused): "refused"
        case .disconnected: "connection_lost"
        case .limit: "limit"
        case .idle: "idle"
        }
    }
}
