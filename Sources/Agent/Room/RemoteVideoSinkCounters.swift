/// What a video sink did with its track, for the stats report.
public struct RemoteVideoSinkCounters: Sendable, Equatable {
    /// Frames handed to ``RemoteVideoSink/receive(_:)`` (mute stops them before this).
    public var framesReceived = 0
    /// Compressed frames decoded without error, and how many of them were keyframes.
    public var framesDecoded = 0
    public var keyframesDecoded = 0
    /// Frames not decoded because the sink was waiting for a keyframe.
    public var framesSkippedWaitingForKeyframe = 0
    /// Frames libvpx refused.
    public var decodeErrors = 0
    /// Frames that were not VP8/VP9 video.
    public var framesUnsupported = 0
    /// Keyframe requests the sink raised.
    public var keyframeRequests = 0
    /// Pictures handed to the closure or stream, and those a full stream buffer dropped.
    public var picturesDelivered = 0
    public var picturesDropped = 0
    /// Size of the last picture, 0 before the first.
    public var width = 0
    public var height = 0

    public init() {}
}
