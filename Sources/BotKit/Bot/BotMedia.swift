/// What a bot publishes: live tracks fed by server code, files played from a playlist, or a
/// mix of the two (one source per kind).
public struct BotMedia {
    /// PCM pushed by the caller, encoded to Opus; silence when nothing is pushed.
    public var audioTrack: AudioTrack?
    /// I420 frames pushed by the caller, encoded to VP8 or H.264 (``VideoTrack/Configuration/codec``,
    /// or the room's choice).
    public var videoTrack: VideoTrack?
    /// Files sent paced by their own timestamps (pass-through or encoded).
    public var playlist: FramePlaylist?
    /// Stops file playback after this long (counted from the first frame).
    public var playbackLimit: Duration?
    /// Offers a data channel so the bot can send data messages.
    public var dataChannel: Bool

    public init(
        audioTrack: AudioTrack? = nil, videoTrack: VideoTrack? = nil, playlist: FramePlaylist? = nil,
        playbackLimit: Duration? = nil, dataChannel: Bool = true
    ) {
        self.audioTrack = audioTrack
        self.videoTrack = videoTrack
        self.playlist = playlist
        self.playbackLimit = playbackLimit
        self.dataChannel = dataChannel
    }
}
