import Foundation

/// A channel's statistics at one moment, per remote participant and track, plus the tracks we
/// publish: what ``ChannelEvent/statsReport(_:)`` carries every ``ChannelOptions/statsInterval``.
/// ``statsString`` (also ``description``) is the one-glance text form.
public struct ChannelStatistics: Sendable, Equatable, CustomStringConvertible {
    /// One remote participant's tracks.
    public struct Participant: Sendable, Equatable {
        public var user: User
        public var tracks: [TrackStatistics]

        public init(user: User, tracks: [TrackStatistics]) {
            self.user = user
            self.tracks = tracks
        }
    }

    public var room: String
    public var measuredAt: Date
    /// The interval the bitrates cover (nominally ``ChannelOptions/statsInterval``).
    public var interval: Duration
    /// Remote participants with at least one subscribed track, in arrival order.
    public var participants: [Participant]
    /// Our published tracks (host channels).
    public var published: [TrackStatistics]
    /// What the channel's event streams coalesced or dropped because their consumer was behind.
    public var events = EventBufferCounts()

    public init(room: String, measuredAt: Date, interval: Duration, participants: [Participant], published: [TrackStatistics]) {
        self.room = room
        self.measuredAt = measuredAt
        self.interval = interval
        self.participants = participants
        self.published = published
    }

    /// Total inbound and outbound payload bitrate, bits per second.
    public var inboundBitrate: Int { participants.reduce(0) { $0 + $1.tracks.reduce(0) { $0 + $1.bitrate } } }
    public var outboundBitrate: Int { published.reduce(0) { $0 + $1.bitrate } }

    /// A participant's track of `kind`, by user id.
    public func track(of userID: String, kind: MediaKind) -> TrackStatistics? {
        participants.first { $0.user.id == userID }?.tracks.first { $0.kind == kind }
    }

    public var description: String { statsString }
}
