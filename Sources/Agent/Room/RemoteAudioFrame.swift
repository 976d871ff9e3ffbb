/// One fixed-length block of decoded audio from a remote track, placed on the sender's RTP
/// timeline.
///
/// Consecutive frames are contiguous: each starts ``RemoteAudioFormat/ticksPerFrame`` RTP ticks
/// after the one before, unless ``isDiscontinuity`` says the timeline restarted.
public struct RemoteAudioFrame: Sendable {
    public var participantID: String
    public var format: RemoteAudioFormat
    /// Interleaved samples, `format.samplesPerChannel × format.channels` of them; nil unless
    /// `format.sampleFormats` holds `.int16`.
    public var int16Samples: [Int16]?
    /// The same audio as Float in −1 ... 1; nil unless `format.sampleFormats` holds `.float`.
    public var floatSamples: [Float]?
    /// The unwrapped RTP time of the first sample, in 48 kHz ticks (the Opus RTP clock, whatever
    /// the output rate).
    public var rtpTimestamp: Int64
    /// The first sample's capture time on the sender's wall clock, in nanoseconds since 1970:
    /// the owning packet's mapped time (``RemoteFrame/wallTimeNanoseconds``) plus the RTP offset.
    public var wallTimeNanoseconds: Int64
    /// True once that mapping came from an RTCP sender report rather than arrival time.
    public var mappedBySenderReport: Bool
    /// Part of the frame was made up to fill a gap in the RTP timeline (loss concealment or
    /// silence) rather than decoded from a packet that arrived.
    public var containsFill: Bool
    /// The first frame of the track, or the first after the timeline restarted (unmute, a jump
    /// too far to fill): it does not continue the frame before it.
    public var isDiscontinuity: Bool

    public init(participantID: String, format: RemoteAudioFormat, int16Samples: [Int16]?, floatSamples: [Float]?,
                rtpTimestamp: Int64, wallTimeNanoseconds: Int64, mappedBySenderReport: Bool,
                containsFill: Bool, isDiscontinuity: Bool) {
        self.participantID = participantID
        self.format = format
        self.int16Samples = int16Samples
        self.floatSamples = floatSamples
        self.rtpTimestamp = rtpTimestamp
        self.wallTimeNanoseconds = wallTimeNanoseconds
        self.mappedBySenderReport = mappedBySenderReport
        self.containsFill = containsFill
        self.isDiscontinuity = isDiscontinuity
    }

    public var samplesPerChannel: Int { format.samplesPerChannel }
    public var duration: Duration { format.duration }
}
