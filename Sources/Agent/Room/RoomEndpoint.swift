/// Where a room is reached, and by which protocol: the part of a ``RoomJoin`` that picks the
/// platform.
///
/// Today every join copy (``JanusAudience/Configuration``, ``JanusPublisher/Configuration``,
/// ``AgentEngine/join(server:room:token:options:)``'s arguments, BotConfiguration,
/// RecordingRequest, RecipeOverrides) carries a bare `server` and `room`, which only a Janus
/// VideoRoom can use. A WHIP endpoint is one URL and has no room of ours to name: the server
/// side decides which room the endpoint publishes into. This enum says which of the two a
/// join means, so the room layer can pick the adapter from the value alone (plan issue 12, A9).
public enum RoomEndpoint: Sendable, Equatable {
    /// A Janus VideoRoom: `server` is its WebSocket URL (`ws://10.77.0.2:8188/`), `room` the
    /// room name (``ChannelName``'s rule, checked where a channel joins).
    case janus(server: String, room: String)
    /// A WHIP endpoint (RFC 9725): the URL the offer is POSTed to. Publishing only.
    case whip(url: String)

    /// The URL the signaling goes to: the Janus WebSocket or the WHIP endpoint.
    public var server: String {
        switch self {
        case .janus(let server, _): server
        case .whip(let url): url
        }
    }

    /// The room name; nil for WHIP, whose URL names the endpoint and whose room is the
    /// server's business.
    public var room: String? {
        switch self {
        case .janus(_, let room): room
        case .whip: nil
        }
    }
}
