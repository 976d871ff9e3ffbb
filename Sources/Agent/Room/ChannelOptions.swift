/// What only our side of a channel decides: what a host publishes, how often reports and
/// stream timers run, and who sees the raw events. Where and how to join is a ``RoomJoin`` (with
/// its ``RoomCredentials``), given to ``AgentEngine/join(_:credentials:options:)``.
public struct ChannelOptions: Sendable {
    /// What a host publishes; ignored by an audience channel.
    public var host: HostOptions
    /// How often ``ChannelEvent/statsReport(_:)`` comes.
    public var statsInterval: Duration
    /// How often the receive streams' timers run (NACK, PLI/FIR, receiver reports).
    public var tickInterval: Duration
    /// Every ``RoomEvent`` of the channel's sources, frames included, handed over synchronously
    /// where it happens: media and statistics on the channel's transport loop, roster events
    /// from the control path. For consumers that must not pay an actor hop per frame (the
    /// recorder). Keep it short and non-blocking: it runs on the media path. It sees what the
    /// room reports (including ``RoomEvent/connectionState(_:at:)`` from reconnects), not the
    /// channel's own connecting/connected/left states.
    public var roomEventSink: (@Sendable (RoomEvent) -> Void)?
    /// Publishers (by participant id) the channel neither announces nor subscribes to: ours
    /// elsewhere, e.g. a recorder's own announcer. A host channel ignores its own publisher anyway.
    public var ignoredParticipantIDs: Set<String>
    /// Decode every remote audio track, run a voice activity detector on it and report who
    /// speaks: ``ChannelEvent/activeSpeakersChanged(_:)`` and each audio track's
    /// ``TrackStatistics/speakingTime``. Off by default: it costs an Opus decode per track.
    public var detectsActiveSpeakers: Bool
    /// Sees every decrypted RTP packet, sender report and route change the audience side takes
    /// in (``PacketCapture``: `agentd record --capture`). Called on the transport loop per packet.
    public var packetTap: (any ReceivePacketTap)?

    public init(
        host: HostOptions = HostOptions(), statsInterval: Duration = .seconds(1), tickInterval: Duration = .milliseconds(20),
        roomEventSink: (@Sendable (RoomEvent) -> Void)? = nil, ignoredParticipantIDs: Set<String> = [],
        detectsActiveSpeakers: Bool = false, packetTap: (any ReceivePacketTap)? = nil
    ) {
        self.packetTap = packetTap
        self.detectsActiveSpeakers = detectsActiveSpeakers
        self.host = host
        self.statsInterval = statsInterval
        self.tickInterval = tickInterval
        self.roomEventSink = roomEventSink
        self.ignoredParticipantIDs = ignoredParticipantIDs
    }
}
