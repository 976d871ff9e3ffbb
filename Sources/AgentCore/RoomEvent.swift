import Foundation

/// What happens in a room, in order, as an audience member sees it. A user is always announced
/// (``participantJoined``) before any of their tracks or frames, and leaves after them.
public enum RoomEvent: Sendable {
    case participantJoined(id: String, display: String, at: Date)
    /// A track is subscribed and frames may follow.
    case trackAdded(participantID: String, kind: MediaKind, codec: MediaCodec)
    case trackRemoved(participantID: String, kind: MediaKind)
    case frame(RemoteFrame)
    /// A data channel message. Janus relays data without the sender's identity unless the
    /// room tells us; `participantID` is nil then.
    case data(participantID: String?, payload: DataChannelMessage.Payload, at: Date)
    case participantLeft(id: String, at: Date)
    /// The connection to the room changed: a drop shows as ``ConnectionState/reconnecting(attempt:)``,
    /// a recovery as ``ConnectionState/connected`` again. Tracks and frames stop during the gap;
    /// users still present are announced again only if they left meanwhile.
    case connectionState(ConnectionState, at: Date)
    /// The media connection's ICE selected this candidate pair: at the first connect, and again
    /// when a new connection (a reconnect) or an ICE restart selects one. Says whether the media
    /// comes through a TURN relay.
    case iceSelectedPair(ICESelectedPair, at: Date)
    /// Periodic per-track receive statistics.
    case statistics(participantID: String, kind: MediaKind, ReceiveStreamStatistics)
}
