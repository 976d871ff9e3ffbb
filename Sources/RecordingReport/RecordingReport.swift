import Agent
import Foundation
import Recorder

/// report.json, version 1: what happened in a recording, per participant, at a glance: who was
/// there when, who spoke how long and when (``VoiceActivityDetector`` on their WAV), what the
/// network did to them (loss, NACK, PLI, keyframes from the manifest's stats), where their video
/// froze (``VideoScan``), how far their audio and video were apart by the sender reports, and
/// when the recorder itself lost the room.
///
///     {"version": 1, "room": "demo", "state": "finished", "started_at": "...", "duration_ms": 20000,
///      "reconnects": 0, "connection_gaps": [],
///      "participants": [{"name": "Alice", "display": "Alice", "id": "4711", "joined_ms": 0,
///        "present_ms": 20000, "speaking_ms": 8000, "speaking": [{"start_ms": 1000, "end_ms": 3000}, ...],
///        "audio": {"packets": 1000, "lost": 3, ...}, "video": {...}, "audio_loss_percent": 0.3, "video_loss_percent": 0,
///        "video_frames": 600, "freezes": [], "freeze_ms": 0, "av_offset_ms": 12, "av_sync": "sender_reports",
///        "notes": []}],
///      "notes": []}
///
/// Times ending in `_ms` are milliseconds from the recording's t=0, as in manifest.json. A value
/// not known is left out (`ended_at` of a recording that never ended, `left_ms` of someone there
/// at the end, `video_frames` of someone without video, `av_offset_ms` when it cannot be told).
public struct RecordingReport: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public var version = Self.currentVersion
    public var room: String
    public var state: String
    public var startedAt: String
    public var endedAt: String?
    /// The timeline's length: the manifest's duration, or the latest time anything in it names.
    public var durationMs: Int64
    public var participants: [ParticipantReport]
    /// When the recorder's own connection to the room was down (`end_ms` null: never back).
    public var connectionGaps: [RecordingManifest.ConnectionGap]
    /// Connection gaps it came back from.
    public var reconnects: Int
    /// What could not be read for the report (a missing WAV, a cut-short WebM), one line each.
    public var notes: [String]

    public init(room: String, state: String, startedAt: String, endedAt: String?, durationMs: Int64,
                participants: [ParticipantReport], connectionGaps: [RecordingManifest.ConnectionGap], notes: [String] = []) {
        self.room = room
        self.state = state
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.durationMs = durationMs
        self.participants = participants
        self.connectionGaps = connectionGaps
        reconnects = connectionGaps.filter { $0.endMs != nil }.count
        self.notes = notes
    }

    enum CodingKeys: String, CodingKey {
        case version, room, state, participants, reconnects, notes
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case durationMs = "duration_ms"
        case connectionGaps = "connection_gaps"
    }

    /// As report.json is written: pretty, keys sorted, slashes unescaped.
    public func encodedJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
