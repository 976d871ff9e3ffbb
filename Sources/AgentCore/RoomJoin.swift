/// Where and how one channel joins a room: the one description of a join, with no secrets in
/// it (those are ``RoomCredentials``), so it can be compared, logged and kept in a job.
///
/// It exists because a join was described six times, each copy a near-duplicate of the others,
/// translated into the next by hand, and settings got lost on the way (plan issue 12, A4). Every
/// layer now takes this value (+ ``RoomCredentials``): ``AgentEngine/join(_:credentials:options:)``,
/// ``JanusAudience/Configuration``, ``JanusPublisher``, BotKit's `BotConfiguration`, AgentdCore's
/// `RecordingRequest`; agentd's `RecipeOverrides` is a ``RoomJoinPatch`` plus a duration.
///
/// What stays out: what only the local side cares about (what a host publishes, how often
/// statistics come, the event sink: ``ChannelOptions``), and what one job does with the room
/// (a recording's formats and duration).
public struct RoomJoin: Sendable, Equatable {
    public var endpoint: RoomEndpoint
    /// The name the room sees. Display names are labels, not identities (see ``User``).
    public var display: String
    /// Unseen audience or publishing host. What a host publishes stays a channel option
    /// (``HostOptions``).
    public var role: ChannelRole
    /// Creates the room when it does not exist, at the first join and at every rejoin (Janus
    /// forgets rooms created at runtime when it restarts); without it a missing room is
    /// ``AgentError/roomNotFound(room:)``.
    public var create: Bool
    /// How ICE gathers and which candidates it uses: the addresses (``ICEAllowList/resolve()``'s
    /// result), the STUN and TURN servers and the transport policy. The TURN credentials are
    /// ``RoomCredentials/iceServer``.
    public var ice: ICEConfiguration
    public var timeouts: RoomTimeouts
    /// How to retry after a drop; ``ReconnectPolicy/never`` ends the channel at the first one.
    public var reconnect: ReconnectPolicy
    /// Participants neither announced nor subscribed to: a host's own publisher, whose media its
    /// listener already has. Set by the channel, never by a caller.
    package var ignoredParticipantIDs: Set<String> = []

    /// The defaults are ``ChannelOptions``' (an audience named "agentd" that creates nothing and
    /// gathers on no listed address) plus ``ReconnectPolicy/standard`` and ``RoomTimeouts``'.
    public init(
        endpoint: RoomEndpoint, display: String = "agentd", role: ChannelRole = .audience, create: Bool = false,
        iceAddresses: [String] = [], timeouts: RoomTimeouts = RoomTimeouts(), reconnect: ReconnectPolicy = .standard
    ) {
        self.endpoint = endpoint
        self.display = display
        self.role = role
        self.create = create
        self.ice = ICEConfiguration(addresses: iceAddresses)
        self.timeouts = timeouts
        self.reconnect = reconnect
    }

    /// ``ice``'s addresses: where host candidates are gathered.
    public var iceAddresses: [String] {
        get { ice.addresses }
        set { ice.addresses = newValue }
    }

    /// The URL the signaling goes to (``RoomEndpoint/server``).
    public var server: String { endpoint.server }
    /// The room name; nil for a WHIP endpoint (``RoomEndpoint/room``).
    public var room: String? { endpoint.room }
}
