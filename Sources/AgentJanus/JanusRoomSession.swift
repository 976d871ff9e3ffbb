import AgentCore
import AgentSession
import Foundation

/// The Janus VideoRoom adapter behind ``RoomSession``: an audience session is a ``JanusAudience``,
/// a host session a ``JanusPublisher``, chosen by the join's ``RoomJoin/role``. It maps every
/// Janus, publisher and media-connection error into ``AgentError`` here
/// (``AgentError/fromJanus(_:server:room:token:now:)``), so the room layer sees no Janus type.
public actor JanusRoomSession: RoomSession {
    /// A VideoRoom does all of it.
    public nonisolated let capabilities: RoomSessionCapabilities = [.roster, .subscribe, .publish, .data, .iceRestart]
    public nonisolated let join: RoomJoin
    private var credentials: RoomCredentials
    nonisolated let audience: JanusAudience?
    let publisher: JanusPublisher?

    /// A session for `join` (a ``RoomEndpoint/janus(server:room:)`` endpoint), on the context's
    /// loop, reporting to its sink.
    public init(join: RoomJoin, credentials: RoomCredentials, context: RoomSessionContext) {
        self.join = join
        self.credentials = credentials
        let events = context.events
        let sink: @Sendable (RoomEvent) -> Void = { events(.room($0)) }
        switch join.role {
        case .audience:
            audience = JanusAudience(
                configuration: .init(
                    join: join, credentials: credentials, tickInterval: context.tickInterval,
                    statisticsInterval: context.statisticsInterval, packetTap: context.packetTap),
                loop: context.loop, sink: sink)
            publisher = nil
        case .host:
            audience = nil
            publisher = JanusPublisher(join: join, credentials: credentials, loop: context.loop, sink: sink)
        }
    }

    public func connect() async throws(AgentError) {
        do {
            if let audience { try await audience.start() }
            if let publisher { try await publisher.connect() }
        } catch {
            throw failure(error)
        }
    }

    public func publish(tracks: [TrackOffer], dataChannel: Bool) async throws(AgentError) -> RoomPublication {
        guard let publisher else { throw AgentError.notHost }
        do {
            return try await publisher.publish(tracks: tracks, dataChannel: dataChannel)
        } catch {
            throw failure(error)
        }
    }

    public func send(_ payload: DataChannelMessage.Payload) async throws(AgentError) {
        guard let publisher else { throw AgentError.notHost }
        do {
            try await publisher.send(payload)
        } catch {
            throw failure(error)
        }
    }

    public func sendStatistics() async -> [String: SendStreamStatistics] {
        await publisher?.statistics() ?? [:]
    }

    public nonisolated func requestKeyframe(participantID: String, kind: MediaKind) {
        audience?.requestKeyframe(participantID: participantID, kind: kind)
    }

    /// The token goes on every later request at once; the pin is Janus's at the next join.
    public func updateCredentials(_ credentials: RoomCredentials) async {
        self.credentials = credentials
        await audience?.updateToken(credentials.token)
        await publisher?.setToken(credentials.token)
    }

    /// A Janus core token says when it expires; an opaque one (`token_auth` with a stored
    /// token) does not.
    public nonisolated func tokenExpiry(of credentials: RoomCredentials) -> Date? {
        credentials.token.flatMap { JanusToken($0).expiry }
    }

    public func teardown() async {
        await audience?.stop()
        await publisher?.stop()
    }

    /// The one funnel from this adapter's errors into the room API's.
    private func failure(_ error: any Error) -> AgentError {
        AgentError.fromJanus(error, server: join.server, room: join.room ?? "", token: credentials.token)
    }
}
