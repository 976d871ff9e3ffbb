/// What a host channel publishes and how.
public struct HostOptions: Sendable {
    /// The tracks to offer (one send-only section each). Media is sent by the caller through
    /// ``Channel/publishSession`` on ``Channel/loop``, or through BotKit's tracks and players.
    public var tracks: [TrackOffer]
    /// Offers a data channel so the host can ``Channel/send(_:)``.
    public var dataChannel: Bool
    /// Also subscribes to the others in the room, so their arrivals, tracks and data reach
    /// ``Channel/events``. Janus relays data only to subscribers, and a publisher's own handle
    /// gets no data, so this takes a second, unseen participant (Janus lists it, never as a
    /// publisher, under the same display name).
    public var listens: Bool

    public init(tracks: [TrackOffer] = [], dataChannel: Bool = true, listens: Bool = true) {
        self.tracks = tracks
        self.dataChannel = dataChannel
        self.listens = listens
    }
}
