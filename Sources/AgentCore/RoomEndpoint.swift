/// Where a room is reached, and by which protocol: the part of a ``RoomJoin`` that picks the
/// platform.
///
/// The join copies this replaced each carried a bare `server` and `room`, which only a Janus
/// VideoRoom can use. A WHIP endpoint is one URL and has no room of ours to name: the server
/// side decides which room the endpoint publishes into. This enum says which of the two a
/// join means, so the room layer picks the adapter from the value alone (``RoomPlatform``).
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
