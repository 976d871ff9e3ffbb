/// Makes the ``RoomSession`` for a join: the one place the room layer names an adapter, picked
/// from ``RoomJoin/endpoint``. A ``Channel`` makes its sessions through it and knows them only
/// as `any RoomSession`.
///
/// Tests make a platform of their own (``init(makeSession:)``) to run a channel over a fake
/// session, with no network.
public struct RoomPlatform: Sendable {
    /// Makes one session for one role of one channel.
    public typealias MakeSession = @Sendable (RoomJoin, RoomCredentials, RoomSessionContext) throws(AgentError) -> any RoomSession

    private let makeSession: MakeSession

    public init(makeSession: @escaping MakeSession) {
        self.makeSession = makeSession
    }

    /// The built-in adapters: a ``RoomEndpoint/janus(server:room:)`` endpoint joins a Janus
    /// VideoRoom; a ``RoomEndpoint/whip(url:)`` endpoint publishes through WHIP (``WHIPSession``).
    public static let standard = RoomPlatform { join, credentials, context throws(AgentError) in
        switch join.endpoint {
        case .janus:
            return JanusRoomSession(join: join, credentials: credentials, context: context)
        case .whip:
            return WHIPSession(join: join, credentials: credentials, context: context)
        }
    }

    /// A session for `join` with `credentials`, running on and reporting to `context`.
    public func session(for join: RoomJoin, credentials: RoomCredentials, context: RoomSessionContext) throws(AgentError) -> any RoomSession {
        try makeSession(join, credentials, context)
    }
}
