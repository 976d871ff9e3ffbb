/// How long the steps of being in a room may take, and how often the link is checked: the
/// time settings of a ``RoomJoin``.
///
/// These sat in three of the join copies, each with part of them, and most never reached the
/// code that used them (plan issue 12, A4, "Settings lost on the way"). This value holds them
/// once, for every role, and the audience and the publisher read them from here; the defaults
/// are the old ones.
///
/// **One connect timeout for both roles.** A host's join (signaling, then media) waited
/// ``connect`` (15 s), while an audience's signaling connection waited JanusConnection's own
/// 10 s, because the channel's value never reached the audience. That 10 s was a parameter
/// default nobody chose for the audience, so there is one field, defaulting to 15 s, and since
/// slice S8 the audience waits it too; a caller that wants the old audience wait sets 10 s.
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
