import Agent
import Foundation

/// manifest.json, version 1: what a recording directory holds and how its files line up.
///
/// The keys named in ARCHITECTURE.md ("Recording directory") are a contract that scripts read:
/// `version`, `room`, `server`, `started_at`, `ended_at`, `participants[]` (`id`, `display`,
/// `name`, `joined_ms`, `left_ms`, `files[]`, `stats`), each file's `path`, `format`, `start_ms`,
/// `tracks[]` (`kind`, `codec`, video `width`/`height`), and per kind (`audio`, `video`) the stats
/// `packets`, `lost`, `recovered`, `nacks`, `plis`, `keyframes`, `first_frame_ms`. They are always
/// present, as `null` when not known yet (`ended_at` while recording, `left_ms` while present).
/// Everything else is extra and may be absent.
///
///     {
///       "version": 1, "state": "recording", "room": "demo", "server": "ws://10.77.0.2:8188/",
///       "started_at": "2026-11-30T10:42:07.120Z", "ended_at": null, "formats": ["webm", "wav"],
///       "files": [{"path": "mix.wav", "format": "mix", "start_ms": 0, "tracks": [...]}],
///       "participants": [{
///         "id": "4711", "display": "Alice B.", "name": "Alice_B_", "joined_ms": 0, "left_ms": null,
///         "files": [{"path": "Alice_B_.webm", "format": "webm", "start_ms": 1480, "tracks": [
///           {"kind": "audio", "codec": "opus", "rtp_ntp_mapping": {"rtp": 96000, "ntp": ..., "wall_ms": ...}},
///           {"kind": "video", "codec": "vp8", "width": 640, "height": 480}]}],
///         "stats": {"audio": {"packets": 250, "lost": 2, ...}, "video": {...}}
///       }]
///     }
///
/// Times ending in `_ms` are milliseconds from the recording's t=0 (`started_at`); dates are
/// ISO-8601 in UTC with a `Z`. Keys are snake_case. Decoding accepts what this encodes, and
/// ignores unknown keys so a newer manifest still reads.
public struct RecordingManifest: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public enum State: String, Codable, Sendable {
        case recording
        case finished
        /// Stopped by an error; the files hold what was written until then.
        case failed
    }

    public var version: Int
    public var state: State
    public var room: String
    /// The signaling URL the recorder joined through.
    public var server: String
    public var startedAt: Date
    /// Nil while recording; encoded as `null`.
    public var endedAt: Date?
    public var durationMs: Int64?
    /// The formats asked for (``RecordingFormats/names``).
    public var formats: [String]
    public var participants: [Participant]
    /// Files of the whole room rather than one participant: mix.wav, data.jsonl.
    public var files: [File]
    /// Room events the recorder's bounded queue refused because the writer fell behind.
    public var eventsDropped: Int64?
    /// Spans of the timeline during which the recorder's connection to the room was down
    /// (between `reconnecting` and `connected` again). Every WAV holds silence there.
    public var gaps: [ConnectionGap]
    /// Why the recording ended early (state `failed`): the connection given up or refused.
    public var error: String?
    /// The ICE settings and the selected candidate pair of the recorder's media connection.
    public var connection: Connection?
    /// What ended the recording (`duration`, `limit`, `idle`, `request`, `signal`,
    /// `connection_lost`...), set in the final manifest by whoever stopped it; nil while recording.
    public var stoppedBy: String?
    /// How far the recording had got (ms from t=0) when this manifest was written: the furthest
    /// media or clock time while recording, the duration in the final one. A recording continued
    /// after its recorder died starts its `continued` gap here (``RecordingContinuation``).
    /// Absent from manifests written before it existed.
    public var writtenMs: Int64?

    public init(room: String, server: String, startedAt: Date, formats: [String] = [],
                state: State = .recording, participants: [Participant] = [], files: [File] = []) {
        version = Self.currentVersion
        self.state = state
        self.room = room
        self.server = server
        self.startedAt = startedAt
        self.formats = formats
        self.participants = participants
        self.files = files
        gaps = []
    }

    /// One person (feed) in the room during the recording. A rejoin is a new participant with a
    /// new ``name`` (`-2`, `-3`, …); someone the recorder's own reconnect took away who comes
    /// back with the same display name keeps their entry and files, with their new id in ``ids``.
    public struct Participant: Codable, Sendable, Equatable {
        /// The SFU's id for them (Janus feed id, as a string): the first one they had.
        public var id: String
        /// Every id they had, in order: more than one when they came back after a reconnect of
        /// ours (a Janus restart gives everyone new ids).
        public var ids: [String]
        /// Their display name as announced.
        public var display: String
        /// The sanitized, unique file name stem (``NameAllocator``).
        public var name: String
        public var joinedMs: Int64
        /// Nil while present; encoded as `null`.
        public var leftMs: Int64?
        public var files: [File]
        public var stats: Stats
        /// Spans of the timeline their WAV filled with silence or concealment.
        public var gaps: [Gap]
        public var resolutionChanges: [ResolutionChange]

        public init(id: String, display: String, name: String, joinedMs: Int64, leftMs: Int64? = nil,
                    files: [File] = [], stats: Stats = Stats(), gaps: [Gap] = [],
                    resolutionChanges: [ResolutionChange] = []) {
            self.id = id
            ids = [id]
            self.display = display
            self.name = name
            self.joinedMs = joinedMs
            self.leftMs = leftMs
            self.files = files
            self.stats = stats
            self.gaps = gaps
            self.resolutionChanges = resolutionChanges
        }

        enum CodingKeys: String, CodingKey {
            case id, ids, display, name, files, stats, gaps
            case joinedMs = "joined_ms"
            case leftMs = "left_ms"
            case resolutionChanges = "resolution_changes"
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            ids = try container.decodeIfPresent([String].self, forKey: .ids) ?? [id]
            display = try container.decode(String.self, forKey: .display)
            name = try container.decode(String.self, forKey: .name)
            joinedMs = try container.decode(Int64.self, forKey: .joinedMs)
            leftMs = try container.decodeIfPresent(Int64.self, forKey: .leftMs)
            files = try container.decode([File].self, forKey: .files)
            stats = try container.decode(Stats.self, forKey: .stats)
            gaps = try container.decodeIfPresent([Gap].self, forKey: .gaps) ?? []
            resolutionChanges = try container.decodeIfPresent([ResolutionChange].self, forKey: .resolutionChanges) ?? []
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(ids, forKey: .ids)
            try container.encode(display, forKey: .display)
            try container.encode(name, forKey: .name)
            try container.encode(joinedMs, forKey: .joinedMs)
            try container.encode(leftMs, forKey: .leftMs)  // null while present: the key is contract
            try container.encode(files, forKey: .files)
            try container.encode(stats, forKey: .stats)
            try container.encode(gaps, forKey: .gaps)
            try container.encode(resolutionChanges, forKey: .resolutionChanges)
        }
    }

    /// One file of the recording, relative to the recording directory.
    public struct File: Codable, Sendable, Equatable {
        public var path: String
        /// The format that produced it: "webm", "wav", "ogg", "mix", "data", "composite" or "transcript".
        public var format: String
        /// Where the file's time 0 lies on the recording's timeline. WAVs start at t=0, so 0.
        public var startMs: Int64
        public var tracks: [Track]
        public var bytes: Int64?
        public var durationMs: Int64?
        /// Where the file ends on the recording's timeline (`start_ms` + `duration_ms`): with
        /// `--segment`, where the next part starts.
        public var endMs: Int64?
        /// Why writing stopped early (e.g. disk full); the file holds what was written until then.
        public var error: String?
        /// The container of a `webm`-format file: "webm", or "matroska" (`.mkv`) when its video is
        /// H.264, which the WebM subset does not allow. Absent for other formats.
        public var container: String?
        /// room.webm (format `composite`): video frames and audio levels dropped at the
        /// compositor's bounded queue. Absent for other files.
        public var framesDropped: Int64?
        /// transcript.jsonl and captions.vtt (format `transcript`): utterances written, and audio
        /// blocks dropped at the transcriber's bounded queue. Absent for other files.
        public var utterances: Int?
        public var blocksDropped: Int64?

        public init(path: String, format: String, startMs: Int64, tracks: [Track] = [],
                    bytes: Int64? = nil, durationMs: Int64? = nil) {
            self.path = path
            self.format = format
            self.startMs = startMs
            self.tracks = tracks
            self.bytes = bytes
            self.durationMs = durationMs
            endMs = durationMs.map { startMs + $0 }
        }

        enum CodingKeys: String, CodingKey {
            case path, format, tracks, bytes, error, container
            case startMs = "start_ms"
            case durationMs = "duration_ms"
            case framesDropped = "frames_dropped"
            case endMs = "end_ms"
            case utterances
            case blocksDropped = "blocks_dropped"
        }
    }

    /// One media track inside a file.
    public struct Track: Codable, Sendable, Equatable {
        public var kind: MediaKind
        /// "opus", "vp8", "vp9", or "pcm_s16le" for WAVs.
        public var codec: String
        /// Video only; `null` until the first keyframe tells.
        public var width: Int?
        public var height: Int?
        public var channels: Int?
        public var sampleRate: Int?
        public var ssrc: UInt32?
        /// How this track's RTP time maps to the sender's and our clock. Per track, because each
        /// stream of a file has its own RTP clock.
        public var rtpNtpMapping: RTPNTPMapping?
        /// WebM video only: how far (ms) video was moved to line up with the audio by the two
        /// streams' sender reports (the latest time, after a reconnect); absent when it never was
        /// (no report for one of them).
        public var avShiftMs: Int64?

        public init(kind: MediaKind, codec: String, width: Int? = nil, height: Int? = nil, channels: Int? = nil,
                    sampleRate: Int? = nil, ssrc: UInt32? = nil, rtpNtpMapping: RTPNTPMapping? = nil,
                    avShiftMs: Int64? = nil) {
            self.kind = kind
            self.codec = codec
            self.width = width
            self.height = height
            self.channels = channels
            self.sampleRate = sampleRate
            self.ssrc = ssrc
            self.rtpNtpMapping = rtpNtpMapping
            self.avShiftMs = avShiftMs
        }

        enum CodingKeys: String, CodingKey {
            case kind, codec, width, height, channels, ssrc
            case sampleRate = "sample_rate"
            case rtpNtpMapping = "rtp_ntp_mapping"
            case avShiftMs = "av_shift_ms"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(codec, forKey: .codec)
            if kind == .video {
                // Contract keys for video: present, null until known.
                try container.encode(width, forKey: .width)
                try container.encode(height, forKey: .height)
            } else {
                try container.encodeIfPresent(width, forKey: .width)
                try container.encodeIfPresent(height, forKey: .height)
            }
            try container.encodeIfPresent(channels, forKey: .channels)
            try container.encodeIfPresent(sampleRate, forKey: .sampleRate)
            try container.encodeIfPresent(ssrc, forKey: .ssrc)
            try container.encodeIfPresent(rtpNtpMapping, forKey: .rtpNtpMapping)
            try container.encodeIfPresent(avShiftMs, forKey: .avShiftMs)
        }
    }

    /// One point tying a stream's clocks together (RFC 3550 §6.4.1): the unwrapped RTP timestamp,
    /// the sender's 64-bit NTP time from its report (0 before the first SR), and our wall clock
    /// (Unix epoch milliseconds) for the same instant.
    public struct RTPNTPMapping: Codable, Sendable, Equatable {
        public enum Source: String, Codable, Sendable {
            /// From an RTCP sender report.
            case senderReport = "sr"
            /// From packet arrival, before any sender report.
            case arrival
        }

        public var rtp: Int64
        public var ntp: UInt64
        public var wallMs: Int64
        public var source: Source

        public init(rtp: Int64, ntp: UInt64, wallMs: Int64, source: Source) {
            self.rtp = rtp
            self.ntp = ntp
            self.wallMs = wallMs
            self.source = source
        }

        enum CodingKeys: String, CodingKey {
            case rtp, ntp, source
            case wallMs = "wall_ms"
        }
    }

    /// Receive statistics, one set per kind (both always present).
    public struct Stats: Codable, Sendable, Equatable {
        public var audio: KindStats
        public var video: KindStats

        public init(audio: KindStats = KindStats(), video: KindStats = KindStats()) {
            self.audio = audio
            self.video = video
        }

        public subscript(kind: MediaKind) -> KindStats {
            get { kind == .audio ? audio : video }
            set { if kind == .audio { audio = newValue } else { video = newValue } }
        }
    }

    public struct KindStats: Codable, Sendable, Equatable {
        public var packets: Int64
        public var lost: Int64
        /// Lost packets recovered (NACK retransmission or FEC).
        public var recovered: Int64
        public var nacks: Int64
        public var plis: Int64
        public var keyframes: Int64
        /// When the first decodable frame arrived; `null` until then.
        public var firstFrameMs: Int64?
        public var bytes: Int64?

        public init(packets: Int64 = 0, lost: Int64 = 0, recovered: Int64 = 0, nacks: Int64 = 0, plis: Int64 = 0,
                    keyframes: Int64 = 0, firstFrameMs: Int64? = nil, bytes: Int64? = nil) {
            self.packets = packets
            self.lost = lost
            self.recovered = recovered
            self.nacks = nacks
            self.plis = plis
            self.keyframes = keyframes
            self.firstFrameMs = firstFrameMs
            self.bytes = bytes
        }

        enum CodingKeys: String, CodingKey {
            case packets, lost, recovered, nacks, plis, keyframes, bytes
            case firstFrameMs = "first_frame_ms"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(packets, forKey: .packets)
            try container.encode(lost, forKey: .lost)
            try container.encode(recovered, forKey: .recovered)
            try container.encode(nacks, forKey: .nacks)
            try container.encode(plis, forKey: .plis)
            try container.encode(keyframes, forKey: .keyframes)
            try container.encode(firstFrameMs, forKey: .firstFrameMs)  // null until the first frame
            try container.encodeIfPresent(bytes, forKey: .bytes)
        }
    }

    /// A span of the timeline without received media.
    public struct Gap: Codable, Sendable, Equatable {
        public var kind: MediaKind
        public var startMs: Int64
        public var endMs: Int64
        /// Why, e.g. "not_joined", "loss", "silence", "left".
        public var reason: String

        public init(kind: MediaKind, startMs: Int64, endMs: Int64, reason: String) {
            self.kind = kind
            self.startMs = startMs
            self.endMs = endMs
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey {
            case kind, reason
            case startMs = "start_ms"
            case endMs = "end_ms"
        }
    }

    /// The sender changed its video size at `tMs`.
    public struct ResolutionChange: Codable, Sendable, Equatable {
        public var tMs: Int64
        public var width: Int
        public var height: Int

        public init(tMs: Int64, width: Int, height: Int) {
            self.tMs = tMs
            self.width = width
            self.height = height
        }

        enum CodingKeys: String, CodingKey {
            case width, height
            case tMs = "t_ms"
        }
    }

    // MARK: Coding

    enum CodingKeys: String, CodingKey {
        case version, state, room, server, formats, participants, files
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case durationMs = "duration_ms"
        case eventsDropped = "events_dropped"
        case gaps, error, connection
        case stoppedBy = "stopped_by"
        case writtenMs = "written_ms"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        state = try container.decodeIfPresent(State.self, forKey: .state) ?? .recording
        room = try container.decode(String.self, forKey: .room)
        server = try container.decode(String.self, forKey: .server)
        startedAt = try Self.decodeDate(container, .startedAt)
        endedAt = try container.decodeNil(forKey: .endedAt) ? nil : Self.decodeDate(container, .endedAt)
        durationMs = try container.decodeIfPresent(Int64.self, forKey: .durationMs)
        formats = try container.decodeIfPresent([String].self, forKey: .formats) ?? []
        participants = try container.decode([Participant].self, forKey: .participants)
        files = try container.decodeIfPresent([File].self, forKey: .files) ?? []
        eventsDropped = try container.decodeIfPresent(Int64.self, forKey: .eventsDropped)
        gaps = try container.decodeIfPresent([ConnectionGap].self, forKey: .gaps) ?? []
        error = try container.decodeIfPresent(String.self, forKey: .error)
        connection = try container.decodeIfPresent(Connection.self, forKey: .connection)
        stoppedBy = try container.decodeIfPresent(String.self, forKey: .stoppedBy)
        writtenMs = try container.decodeIfPresent(Int64.self, forKey: .writtenMs)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(state, forKey: .state)
        try container.encode(room, forKey: .room)
        try container.encode(server, forKey: .server)
        try container.encode(Self.formatDate(startedAt), forKey: .startedAt)
        try container.encode(endedAt.map(Self.formatDate), forKey: .endedAt)  // null while recording
        try container.encodeIfPresent(durationMs, forKey: .durationMs)
        try container.encode(formats, forKey: .formats)
        try container.encode(participants, forKey: .participants)
        try container.encode(files, forKey: .files)
        try container.encodeIfPresent(eventsDropped, forKey: .eventsDropped)
        try container.encode(gaps, forKey: .gaps)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(connection, forKey: .connection)
        try container.encodeIfPresent(stoppedBy, forKey: .stoppedBy)
        try container.encodeIfPresent(writtenMs, forKey: .writtenMs)
    }

    /// ISO-8601 in UTC with milliseconds: `2026-11-30T10:42:07.120Z`, rounded to the nearest
    /// millisecond, so a date read back with ``parseDate(_:)`` formats to the same text (the
    /// formatter's own fraction truncates, and `.004` read back could come out as `.003`: a
    /// continued recording's `started_at` would drift).
    public static func formatDate(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        let total = Int64(milliseconds)
        let seconds = total >= 0 ? total / 1000 : (total - 999) / 1000
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        return String(whole.dropLast()) + String(format: ".%03d", Int(total - seconds * 1000)) + "Z"
    }

    /// Parses ISO-8601 with or without fractional seconds.
    public static func parseDate(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    private static func decodeDate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = parseDate(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an ISO-8601 date: \(text)")
        }
        return date
    }

    /// Encodes as manifest.json is written: pretty, keys sorted, slashes unescaped.
    public func encodedJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public static func decode(_ data: Data) throws -> RecordingManifest {
        try JSONDecoder().decode(RecordingManifest.self, from: data)
    }
}
