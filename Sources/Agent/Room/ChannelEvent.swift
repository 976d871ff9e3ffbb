import Foundation

/// What a channel reports, in order, on ``Channel/events``.
///
/// Order guarantees (as client SDKs give them): ``userJoined(_:)`` comes before any
/// ``trackSubscribed(_:_:)`` of that user; ``userLeft(_:)`` comes after the
/// ``trackUnsubscribed(_:_:)`` of each of their tracks; ``connectionStateChanged(_:)`` starts
/// with ``ConnectionState/connecting`` and ends with ``ConnectionState/disconnected(reason:)``,
/// after which the stream finishes.
public enum ChannelEvent: Sendable {
    case connectionStateChanged(ConnectionState)
    case userJoined(User)
    /// The ``RemoteTrack`` is the track's one object for as long as it stays subscribed: attach
    /// sinks to it, mute it. It is finished (its sinks end) with ``trackUnsubscribed(_:_:)``.
    case trackSubscribed(User, RemoteTrack)
    case trackUnsubscribed(User, RemoteTrack)
    case userLeft(User)
    /// A data message. Janus relays data without its sender, so `from` is nil unless the room
    /// tells who sent it.
    case dataReceived(from: User?, payload: DataChannelMessage.Payload)
    /// The core token expires at `expiresAt`: about ``ChannelOptions/tokenExpiryLead`` before
    /// that, or at once when less was left at join or renewal. Call ``Channel/renewToken(_:)``.
    case tokenWillExpire(expiresAt: Date)
    /// Every ``ChannelOptions/statsInterval``. While the consumer is behind, a newer report
    /// replaces a pending one (counted in ``ChannelStatistics/events``).
    case statsReport(ChannelStatistics)
    /// The consumer fell so far behind that `count` events that belonged here were discarded: data
    /// messages past ``EventBuffer/limitedCapacity`` pending, or any event past the
    /// ``EventBuffer/ceiling`` (far above a real room). Read ``Channel/users`` to resync the roster.
    case eventsLost(count: Int)
    /// Who is speaking now, loudest first (empty: nobody), each time that changes; only with
    /// ``ChannelOptions/detectsActiveSpeakers``. A pause under 300 ms keeps a speaker in the
    /// list, and two talking at once swap places only when one is 6 dB louder (see
    /// ``ActiveSpeakerTracker``). A slow consumer gets the newest list.
    case activeSpeakersChanged([User])
}
