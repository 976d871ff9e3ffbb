/// Settings that replace a ``RoomJoin``'s and its ``RoomCredentials``' own: a command's flags
/// or the fields of a daemon request laid over a recipe. nil keeps the current value.
///
/// It is what agentd's `RecipeOverrides` was without the duration, one layer down, so that a
/// patch can be laid over any join and not only a recipe: `RecipeOverrides` is this plus its
/// duration. The semantics are the old RecipeOverrides' (`applied(to:)` with the same inputs
/// gives the same settings), with one rule enforced here: ``create`` only adds creating, never
/// takes it away.
///
/// It checks nothing: the values were checked where they came in (the
/// command line's and the API's rules in AgentdCore: DisplayName, JanusURL, ChannelName).
public struct RoomJoinPatch: Sendable, Equatable {
    /// Replaces the signaling URL: a Janus endpoint's server, or a WHIP endpoint's URL.
    public var server: String?
    /// Replaces a Janus endpoint's room. A WHIP endpoint has no room, so there it changes
    /// nothing; callers refuse a room beside a WHIP URL before (plan issue 12, A9).
    public var room: String?
    public var display: String?
    /// Only `true` changes the join (a flag can add `--create`, not take it away); `false` keeps
    /// the join's own, as nil does.
    public var create: Bool?
    /// Replaces the join's whole ICE configuration (addresses, servers, policy): the process's
    /// own, from `--ice-*` flags, their environment variables or the daemon's config, laid over
    /// every join it makes.
    public var ice: ICEConfiguration?
    /// The token, pin and TURN credentials to use instead; a nil field keeps the current one.
    /// Redacted in every textual form of the patch, as in ``RoomCredentials``.
    public var credentials: RoomCredentials

    /// The labels and order are RecipeOverrides', without its duration.
    public init(
        server: String? = nil, room: String? = nil, token: String? = nil, pin: String? = nil, create: Bool? = nil,
        display: String? = nil
    ) {
        self.server = server
        self.room = room
        self.credentials = RoomCredentials(token: token, pin: pin)
        self.create = create
        self.display = display
    }

    /// The join with these settings applied.
    public func applied(to join: RoomJoin) -> RoomJoin {
        var result = join
        if let server { result.endpoint = Self.endpoint(join.endpoint, server: server) }
        if let room, case .janus(let server, _) = result.endpoint { result.endpoint = .janus(server: server, room: room) }
        if let display { result.display = display }
        if create == true { result.create = true }
        if let ice { result.ice = ice }
        return result
    }

    /// The credentials with these applied.
    public func applied(to credentials: RoomCredentials) -> RoomCredentials {
        var result = credentials
        if let token = self.credentials.token { result.token = token }
        if let pin = self.credentials.pin { result.pin = pin }
        if let iceServer = self.credentials.iceServer { result.iceServer = iceServer }
        return result
    }

    /// A patch of the ICE settings alone: what a process lays over every join it makes.
    public static func ice(_ ice: ICEConfiguration, credentials: ICEServerCredentials?) -> RoomJoinPatch {
        var patch = RoomJoinPatch()
        patch.ice = ice
        patch.credentials.iceServer = credentials
        return patch
    }

    private static func endpoint(_ endpoint: RoomEndpoint, server: String) -> RoomEndpoint {
        switch endpoint {
        case .janus(_, let room): .janus(server: server, room: room)
        case .whip: .whip(url: server)
        }
    }
}
