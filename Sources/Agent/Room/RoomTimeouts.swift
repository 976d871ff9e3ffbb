/// How long the steps of being in a room may take, and how often the link is checked: the
/// time settings of a ``RoomJoin``.
///
/// Today these sit in three of the join copies, each with part of them, and most never reach
/// the code that uses them (plan issue 12, A4, "Settings lost on the way"):
/// ``ChannelOptions/connectTimeout`` and ``ChannelOptions/tokenExpiryLead``,
/// ``JanusPublisher/Configuration/connectTimeout``, BotConfiguration's `connectTimeout`, and
/// ``JanusAudience/Configuration/healthCheckInterval`` and
/// ``JanusAudience/Configuration/iceRestartTimeout``, which no caller can set through a channel.
/// This value holds them once, for every role; the defaults are today's.
///
/// **One connect timeout for both roles.** Today a host's join (signaling, then media) waits
/// ``connect`` (15 s in ChannelOptions, JanusPublisher and BotConfiguration alike), while an
/// audience's signaling connection waits JanusConnection's own 10 s, because ChannelOptions'
/// value never reaches the audience. That 10 s is a parameter default nobody chose for the
/// audience, so there is one field, defaulting to 15 s; a caller that wants today's audience
/// behaviour sets 10 s. Wiring this in (slice S8) is where the audience's wait changes, and
/// that slice says so.
public struct RoomTimeouts: Sendable, Equatable {
    /// How long joining may take before it fails: the signaling connection, and for a host also
    /// the media connection.
    public var connect: Duration
    /// How long an ICE restart may take before the whole link is rebuilt instead.
    public var iceRestart: Duration
    /// How often the signaling session is probed (a Janus `keepalive`); a probe the server says
    /// it cannot match, or two unanswered in a row, count as a drop.
    public var healthCheck: Duration
    /// How long before the core token expires the channel warns
    /// (``ChannelEvent/tokenWillExpire(expiresAt:)``).
    public var tokenExpiryLead: Duration

    public init(
        connect: Duration = .seconds(15), iceRestart: Duration = .seconds(10), healthCheck: Duration = .seconds(5),
        tokenExpiryLead: Duration = .seconds(30)
    ) {
        self.connect = connect
        self.iceRestart = iceRestart
        self.healthCheck = healthCheck
        self.tokenExpiryLead = tokenExpiryLead
    }
}
