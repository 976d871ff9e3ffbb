import AgentCore

/// What ``RoomSession/publish(tracks:dataChannel:)`` set up for a host.
public struct RoomPublication: Sendable {
    /// Our participant id in the room; a host's listener ignores it, as its media is ours.
    public let publisherID: String
    /// Where media goes; confined to the session's loop (``RoomSessionContext/loop``).
    public let session: PublishSession
    /// The tracks published, with the mids ``session`` knows them by.
    public let tracks: [TrackOffer]

    public init(publisherID: String, session: PublishSession, tracks: [TrackOffer]) {
        self.publisherID = publisherID
        self.session = session
        self.tracks = tracks
    }
}
