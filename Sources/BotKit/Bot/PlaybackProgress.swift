/// How far a bot's pulled media got: the playlist's frames and passes, and what the worker lanes
/// did not have ready in time (each of those went out one 10 ms pacing tick late).
public struct PlaybackProgress: Sendable, Equatable {
    /// Frames sent from the playlist.
    public var frames = 0
    /// Passes through the playlist started (1 without `loop`).
    public var passes = 1
    /// Audio track packets not yet encoded when due.
    public var lateAudioPackets = 0
    /// Playlist frames not yet read when due.
    public var lateFileFrames = 0
    /// Keyframe requests answered with a keyframe of our own while the file's video went out as
    /// stored (``KeyframeBridge``), instead of at the file's next keyframe.
    public var keyframesMade = 0

    public init() {}

    /// Every frame that went out late.
    public var lateFrames: Int { lateAudioPackets + lateFileFrames }
}
