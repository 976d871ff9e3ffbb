import Agent

/// Where a bot joins and how it shows up: a ``RoomJoin`` (a host's; ``Bot`` joins as one
/// whatever its role says) with its ``RoomCredentials``, and what only a bot decides.
public struct BotConfiguration: Sendable {
    /// Where and how: the endpoint, the display everyone sees, `create`, ICE addresses,
    /// ``RoomTimeouts/connect`` (how long the join and the media connection may take before
    /// ``Bot/start(_:)`` gives up), the token-expiry lead, and ``RoomJoin/reconnect``: how the bot
    /// comes back after a drop (signaling closed, a hangup, a restart): it rejoins and publishes
    /// again, its tracks and playlist going on. ``ReconnectPolicy/never`` ends it with
    /// ``BotEvent/connectionLost(_:)`` at once. The same policy serves its listener.
    public var join: RoomJoin
    /// The core token (sent on every request) and the room's pin.
    public var credentials: RoomCredentials
    /// Subscribes to the others in the room so their data messages (and who comes and goes)
    /// arrive as ``BotEvent``s. Janus relays data only to subscribers, so without this a bot can
    /// send data but hears nothing.
    public var listens: Bool
    /// How often ``BotEvent/statistics(_:)`` comes.
    public var statsInterval: Duration

    public init(join: RoomJoin, credentials: RoomCredentials = .none, listens: Bool = true, statsInterval: Duration = .seconds(1)) {
        self.join = join
        self.join.role = .host
        self.credentials = credentials
        self.listens = listens
        self.statsInterval = statsInterval
    }

    /// A bot in `room` on the Janus at `server` (its WebSocket URL, e.g. `ws://10.77.0.2:8188/`).
    public init(
        server: String, room: String, display: String, token: String? = nil, pin: String? = nil, create: Bool = false,
        iceAddresses: [String], listens: Bool = true, connectTimeout: Duration = .seconds(15), statsInterval: Duration = .seconds(1),
        reconnect: ReconnectPolicy = .standard
    ) {
        self.init(
            join: RoomJoin(
                endpoint: .janus(server: server, room: room), display: display, role: .host, create: create,
                iceAddresses: iceAddresses, timeouts: RoomTimeouts(connect: connectTimeout), reconnect: reconnect),
            credentials: RoomCredentials(token: token, pin: pin), listens: listens, statsInterval: statsInterval)
    }

    /// What messages call the room: its name, or the endpoint's URL where it has none.
    public var roomName: String { join.room ?? join.server }
}
