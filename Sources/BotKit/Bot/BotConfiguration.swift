import Agent

/// Where a bot joins and how it shows up.
public struct BotConfiguration: Sendable {
    /// The Janus WebSocket URL, e.g. `ws://10.77.0.2:8188/`.
    public var server: String
    public var room: String
    /// The name everyone in the room sees.
    public var display: String
    /// A Janus core token, sent on every request.
    public var token: String?
    public var pin: String?
    /// Creates the room when it does not exist.
    public var create: Bool
    /// IPv4 addresses to gather ICE candidates on (``ICEAllowList/resolve()``).
    public var iceAddresses: [String]
    /// Subscribes to the others in the room so their data messages (and who comes and goes)
    /// arrive as ``BotEvent``s. Janus relays data only to subscribers, so without this a bot can
    /// send data but hears nothing.
    public var listens: Bool
    /// How long the media connection to Janus may take before ``Bot/start(_:)`` gives up.
    public var connectTimeout: Duration
    /// How often ``BotEvent/statistics(_:)`` comes.
    public var statsInterval: Duration
    /// How the bot comes back after Janus drops it (signaling closed, a hangup, a restart):
    /// it rejoins and publishes again, its tracks and playlist going on. ``ReconnectPolicy/never``
    /// ends it with ``BotEvent/connectionLost(_:)`` at once.
    public var reconnect: ReconnectPolicy

    public init(
        server: String, room: String, display: String, token: String? = nil, pin: String? = nil, create: Bool = false,
        iceAddresses: [String], listens: Bool = true, connectTimeout: Duration = .seconds(15), statsInterval: Duration = .seconds(1),
        reconnect: ReconnectPolicy = .standard
    ) {
        self.reconnect = reconnect
        self.server = server
        self.room = room
        self.display = display
        self.token = token
        self.pin = pin
        self.create = create
        self.iceAddresses = iceAddresses
        self.listens = listens
        self.connectTimeout = connectTimeout
        self.statsInterval = statsInterval
    }
}
