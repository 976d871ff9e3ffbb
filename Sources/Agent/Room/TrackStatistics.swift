/// One track's figures in a ``ChannelStatistics`` report: a remote user's track we receive, or
/// one of ours we publish.
public struct TrackStatistics: Sendable, Equatable {
    public enum Direction: String, Sendable {
        case inbound, outbound
    }

    public var direction: Direction
    public var kind: MediaKind
    public var codec: MediaCodec?
    /// Payload bits per second over the last interval, from the byte counters' difference.
    public var bitrate: Int
    /// RTP packets received (inbound) or sent (outbound, retransmissions not counted).
    public var packets: Int
    /// Packets lost in total: what we never received (inbound), or what the receiver reports
    /// missing (outbound, from RTCP receiver reports).
    public var lost: Int
    /// The share of packets lost (0...1): over the last interval (inbound), or since the
    /// receiver's previous report (outbound).
    public var fractionLost: Double
    /// RFC 3550 interarrival jitter: ours (inbound), or the receiver's report (outbound); nil
    /// before the first report.
    public var jitter: Duration?
    /// NACK packets sent (inbound) or received (outbound).
    public var nacks: Int
    /// Picture loss indications (and full intra requests) sent (inbound) or received (outbound).
    public var plis: Int
    public var firs: Int
    /// Frames assembled (inbound) or sent (outbound), and how many of them were keyframes.
    public var frames: Int
    public var keyframes: Int
    /// Round-trip time from the receiver's report about our sender report (outbound only).
    public var roundTripTime: Duration?
    /// Frames the decoder produced; nil where no decoding sink runs.
    public var framesDecoded: Int?
    /// Audio level of the decoded track (0...1, RMS re full scale); nil where no decoding sink runs.
    public var audioLevel: Double?
    /// Frames dropped before the track's sinks because its worker lane was full (inbound only):
    /// the sinks fell behind (``RemoteTrack/Counters/framesDroppedLaneFull``).
    public var sinkFramesDropped: Int
    /// How long the remote user has spoken on this audio track, as the voice activity detector
    /// finds it; nil unless ``ChannelOptions/detectsActiveSpeakers``.
    public var speakingTime: Duration?
    /// Where the speaking figures come from: the sender's RFC 6464 levels (no decoding), or our
    /// decode of the track.
    public var speakingSource: SpeakingSource?

    public enum SpeakingSource: String, Sendable {
        case headerExtension = "header_extension"
        case decoded
    }

    public init(
        direction: Direction, kind: MediaKind, codec: MediaCodec? = nil, bitrate: Int = 0, packets: Int = 0, lost: Int = 0,
        fractionLost: Double = 0, jitter: Duration? = nil, nacks: Int = 0, plis: Int = 0, firs: Int = 0, frames: Int = 0,
        keyframes: Int = 0, roundTripTime: Duration? = nil, framesDecoded: Int? = nil, audioLevel: Double? = nil,
        sinkFramesDropped: Int = 0
    ) {
        self.direction = direction
        self.kind = kind
        self.codec = codec
        self.bitrate = bitrate
        self.packets = packets
        self.lost = lost
        self.fractionLost = fractionLost
        self.jitter = jitter
        self.nacks = nacks
        self.plis = plis
        self.firs = firs
        self.frames = frames
        self.keyframes = keyframes
        self.roundTripTime = roundTripTime
        self.framesDecoded = framesDecoded
        self.audioLevel = audioLevel
        self.sinkFramesDropped = sinkFramesDropped
    }
}
