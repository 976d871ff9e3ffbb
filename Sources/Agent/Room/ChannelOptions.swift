/// How a channel joins its room: ``AgentEngine/join(server:room:token:options:)``.
public struct ChannelOptions: Sendable {
    public var role: ChannelRole
    /// The name the room sees. An audience member is never listed as a publisher, but Janus
    /// still keeps its display. Display names are labels, not identities: Janus lets several
    /// participants share one (each gets its own id; see ``User``).
    public var display: String
    /// The room's pin, sent in the join (and set on the room when `create` creates it).
    public var pin: String?
    /// Creates the room when it does not exist; without it, a missing room is
    /// ``AgentError/roomNotFound(room:)``.
    public var create: Bool
    /// IPv4 addresses to gather ICE candidates on (``ICEAllowList/resolve()``).
    public var iceAddresses: [String]
    /// How often ``ChannelEvent/statsReport(_:)`` comes.
    public var statsInterval: Duration
    /// How long before the core token's expiry ``ChannelEvent/tokenWillExpire(expiresAt:)`` comes.
    public var tokenExpiryLead: Duration
    /// How long joining may take before the channel gives up: the signaling connection, and for
    /// a host the media connection.
    public var connectTimeout: Duration
    /// What a host publishes; ignored by an audience channel.
    public var host: HostOptions
    /// Every ``RoomEvent`` of the channel's sources, frames included, handed over synchronously
    /// where it happens: media and statistics on the channel's transport loop, roster events
    /// from the control path. For consumers that must not pay an actor hop per frame (the
    /// recorder). Keep it short and non-blocking: it runs on the media path. It sees what the
    /// room reports (including ``RoomEvent/connectionState(_:at:)`` from reconnects), not the
    /// channel's own connecting/connected/left states.
    public var roomEventSink: (@Sendable (RoomEvent) -> Void)?

    public init(
        role: ChannelRole = .audience, display: String = "agentd", pin: String? = nil, create: Bool = false,
        iceAddresses: [String] = [], statsInterval: Duration = .seconds(1), tokenExpiryLead: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(15), host: HostOptions = HostOptions(),
        roomEventSink: (@Sendable (RoomEvent) -> Void)? = nil
    ) {
        self.role = role
        self.display = display
        self.pin = pin
        self.create = create
        self.iceAddresses = iceAddresses
        self.statsInterval = statsInterval
        self.tokenExpiryLead = tokenExpiryLead
        self.connectTimeout = connectTimeout
        self.host = host
        self.roomEventSink = roomEventSink
    }
}
