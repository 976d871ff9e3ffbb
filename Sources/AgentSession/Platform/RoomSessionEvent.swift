import AgentCore

/// What a ``RoomSession`` reports to its channel, on whatever thread it happens: media and
/// statistics on the session's transport loop, roster and state from its control path.
///
/// Today that is what happens in the room, as ``RoomEvent``s: an audience adapter runs its link's
/// ``LinkDriver`` itself and reports the states. Once the driver moves above the seam, the link
/// signals its machine takes (link lost, media failed) become cases of their own here.
public enum RoomSessionEvent: Sendable {
    /// A room event: roster, tracks, frames, data, statistics, connection states.
    case room(RoomEvent)
}
