import AgentCore

/// What a ``RoomSession`` reports to its channel, on whatever thread it happens: media and
/// statistics on the session's transport loop, roster and state from its control path.
///
/// Today that is what happens in the room, as ``RoomEvent``s (the adapters still recover from
/// drops themselves and report the states). Slice S9 adds the link signals the channel's
/// ``LinkStateMachine`` will take (link lost, media failed) as cases of their own here.
public enum RoomSessionEvent: Sendable {
    /// A room event: roster, tracks, frames, data, statistics, connection states.
    case room(RoomEvent)
}
