/// How a channel takes part in its room.
public enum ChannelRole: String, Sendable, Equatable {
    /// Unseen: joins without publishing, subscribes to everyone (a recorder, a listener).
    /// Janus lists it as a participant but never as a publisher.
    case audience
    /// Seen: publishes tracks and/or data that everyone receives (a bot), and by default also
    /// listens to the others (``HostOptions/listens``).
    case host
}
