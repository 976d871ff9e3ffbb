/// The labels ChannelOptions had when it also said where to join, kept so that callers of
/// ``AgentEngine/join(server:room:token:options:)`` compile unchanged. The join settings are
/// held as a ``RoomJoin`` and a pin, and the shim builds the join from them: they are not a
/// second copy of the join, and ``AgentEngine/join(_:credentials:options:)`` never reads them.
extension ChannelOptions {
    /// - Parameters: as ``RoomJoin``'s (`role`, `display`, `create`, `iceAddresses`),
    ///   ``RoomTimeouts``' (`tokenExpiryLead`, `connectTimeout` as ``RoomTimeouts/connect``) and
    ///   ``RoomCredentials/pin``; the rest are the channel's own.
    @_disfavoredOverload
    public init(
        role: ChannelRole = .audience, display: String = "agentd", pin: String? = nil, create: Bool = false,
        iceAddresses: [String] = [], statsInterval: Duration = .seconds(1), tokenExpiryLead: Duration = .seconds(30),
        connectTimeout: Duration = .seconds(15), host: HostOptions = HostOptions(),
        roomEventSink: (@Sendable (RoomEvent) -> Void)? = nil
    ) {
        self.init(host: host, statsInterval: statsInterval, roomEventSink: roomEventSink)
        shimJoin = RoomJoin(
            endpoint: shimJoin.endpoint, display: display, role: role, create: create, iceAddresses: iceAddresses,
            timeouts: RoomTimeouts(connect: connectTimeout, tokenExpiryLead: tokenExpiryLead))
        shimPin = pin
    }

    /// The join and credentials the shim labels stand for, for `room` on `server` with `token`.
    func shimmedJoin(server: String, room: String, token: String?) -> (RoomJoin, RoomCredentials) {
        var join = shimJoin
        join.endpoint = .janus(server: server, room: room)
        return (join, RoomCredentials(token: token, pin: shimPin))
    }
}
