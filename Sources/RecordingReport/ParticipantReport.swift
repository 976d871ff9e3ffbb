import Agent
import Recorder

/// One participant's part of report.json (``RecordingReport``).
public struct ParticipantReport: Codable, Sendable, Equatable {
    public var id: String
    public var display: String
    /// The file name stem their files carry (manifest `name`).
    public var name: String
    public var joinedMs: Int64
    /// Nil (absent) when they were still there when the recording ended.
    public var leftMs: Int64?
    public var presentMs: Int64
    public var speakingMs: Int64
    public var speaking: [TimelineSpan]
    /// The speaking list was cut short; ``speakingMs`` still counts all of it.
    public var speakingTruncated: Bool
    /// The manifest's receive figures per kind, as they are.
    public var audio: RecordingManifest.KindStats
    public var video: RecordingManifest.KindStats
    /// `lost / (packets + lost) * 100`, two decimals: loss as a share of the packets sent.
    public var audioLossPercent: Double
    public var videoLossPercent: Double
    /// Video frames in their WebM/Matroska files; nil when they had none to read.
    public var videoFrames: Int?
    public var freezes: [TimelineSpan]
    public var freezeMs: Int64
    /// While present, where no audio came (the manifest's WAV gaps that are not before the join,
    /// after the leave or the recorder's reconnect): loss, or a sender gone quiet (DTX).
    public var audioGaps: [TimelineSpan] = []
    /// How far apart their audio and video arrived, by the two streams' RTCP sender reports
    /// (positive: video behind audio). The recorder moved video back by as much (manifest
    /// `av_shift_ms`, the negation), so their files are in sync. Nil when it could not be
    /// measured (see ``avSync``).
    public var avOffsetMs: Int64?
    /// How ``avOffsetMs`` was found: `sender_reports`, or why not: `arrival_only` (a stream had
    /// no sender report), `no_video`, `no_audio`.
    public var avSync: String
    public var notes: [String]

    public init(id: String, display: String, name: String, joinedMs: Int64, leftMs: Int64?, presentMs: Int64,
                speech: SpeechScan?, stats: RecordingManifest.Stats, videoScan: VideoScan?,
                avOffsetMs: Int64?, avSync: String, notes: [String]) {
        self.id = id
        self.display = display
        self.name = name
        self.joinedMs = joinedMs
        self.leftMs = leftMs
        self.presentMs = presentMs
        speakingMs = speech?.speakingMs ?? 0
        speaking = speech?.intervals ?? []
        speakingTruncated = speech?.truncated ?? false
        audio = stats.audio
        video = stats.video
        audioLossPercent = Self.lossPercent(stats.audio)
        videoLossPercent = Self.lossPercent(stats.video)
        videoFrames = videoScan?.frames
        freezes = videoScan?.freezes ?? []
        freezeMs = videoScan?.freezeMs ?? 0
        self.avOffsetMs = avOffsetMs
        self.avSync = avSync
        self.notes = notes
    }

    /// 0 with no packets; counts from a file may be anything, so no integer arithmetic.
    static func lossPercent(_ stats: RecordingManifest.KindStats) -> Double {
        let lost = max(0, Double(stats.lost))
        let sent = max(0, Double(stats.packets)) + lost
        return sent > 0 ? (lost / sent * 10_000).rounded() / 100 : 0
    }

    /// NACKs of both kinds (saturating: the counts come from a file).
    public var nacks: Int64 {
        let (sum, overflow) = audio.nacks.addingReportingOverflow(video.nacks)
        return overflow ? .max : sum
    }

    enum CodingKeys: String, CodingKey {
        case id, display, name, speaking, audio, video, freezes, notes
        case audioGaps = "audio_gaps"
        case audioLossPercent = "audio_loss_percent"
        case videoLossPercent = "video_loss_percent"
        case joinedMs = "joined_ms"
        case leftMs = "left_ms"
        case presentMs = "present_ms"
        case speakingMs = "speaking_ms"
        case speakingTruncated = "speaking_truncated"
        case videoFrames = "video_frames"
        case freezeMs = "freeze_ms"
        case avOffsetMs = "av_offset_ms"
        case avSync = "av_sync"
    }
}
