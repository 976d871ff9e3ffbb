/// One complete encoded frame from a remote participant's track, placed on the wall clock.
///
/// This is what the room layer hands to sinks (the recorder, encoded-frame sinks): the
/// transport, jitter buffer and RTCP are behind it.
public struct RemoteFrame: Sendable {
    public var participantID: String
    public var kind: MediaKind
    public var codec: MediaCodec
    public var bytes: [UInt8]
    public var isKeyframe: Bool
    /// Unwrapped 64-bit RTP timestamp and the clock it counts in.
    public var rtpTimestamp: Int64
    public var clockRate: Int
    /// Capture time on the sender's wall clock, mapped with RTCP SR (or, before the first SR,
    /// with the first packet's arrival), in nanoseconds since 1970.
    public var wallTimeNanoseconds: Int64
    /// True once the mapping came from a sender report rather than arrival time.
    public var mappedBySenderReport: Bool
    /// True when packets were given up between the previous frame of the track and this one:
    /// a video decoder cannot continue from here until a keyframe.
    public var followsLoss: Bool
    /// The sender's RFC 6464 audio level byte for an audio frame, when that header extension
    /// was negotiated and the packet had it: bit 7 is the sender's voice activity flag, bits 0–6
    /// the level in −dBov (0 loudest, 127 silence).
    public var audioLevel: UInt8?

    public init(
        participantID: String, kind: MediaKind, codec: MediaCodec, bytes: [UInt8], isKeyframe: Bool,
        rtpTimestamp: Int64, clockRate: Int, wallTimeNanoseconds: Int64, mappedBySenderReport: Bool, followsLoss: Bool = false,
        audioLevel: UInt8? = nil
    ) {
        self.audioLevel = audioLevel
        self.participantID = participantID
        self.kind = kind
        self.codec = codec
        self.bytes = bytes
        self.isKeyframe = isKeyframe
        self.rtpTimestamp = rtpTimestamp
        self.clockRate = clockRate
        self.wallTimeNanoseconds = wallTimeNanoseconds
        self.mappedBySenderReport = mappedBySenderReport
        self.followsLoss = followsLoss
    }
}
