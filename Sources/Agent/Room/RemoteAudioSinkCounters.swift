/// What an audio sink did with its track, for the stats report. Sample counts are 48 kHz ticks
/// (the Opus RTP clock), whatever the output rate.
public struct RemoteAudioSinkCounters: Sendable, Equatable {
    /// Opus packets decoded.
    public var packetsDecoded = 0
    /// Packets dropped because they lay wholly behind the timeline: duplicates, or reordered past
    /// the point where their span was already filled.
    public var packetsLate = 0
    /// Packets that could not be decoded (corrupt, not Opus, not audio). Their span, if known,
    /// was concealed instead.
    public var packetsUndecodable = 0
    /// Gaps filled with loss concealment (and FEC), and with silence.
    public var gapsConcealed = 0
    public var gapsSilenced = 0
    public var concealedSamples: Int64 = 0
    public var silenceSamples: Int64 = 0
    /// Times the timeline restarted because the RTP time jumped beyond the gap policy's fill limit.
    public var timelineRestarts = 0
    /// Frames handed to the closure or stream.
    public var framesDelivered = 0
    /// Of those, frames holding some fill (concealment or silence).
    public var framesWithFill = 0
    /// Frames a full stream buffer pushed out before the consumer took them.
    public var framesDropped = 0
    /// Frames the render processor refused (delivered unprocessed), plus one when the engine's
    /// default processor could not be made for this sink.
    public var processorFailures = 0

    public init() {}
}
