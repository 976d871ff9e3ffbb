/// One subscribed track of a ``User``: what ``ChannelEvent/trackSubscribed(_:_:)`` announces.
/// A user has at most one track per kind (Janus VideoRoom: one audio and one video stream per
/// publisher as we subscribe to them).
public struct RemoteTrack: Sendable, Hashable, CustomStringConvertible {
    /// The publishing user's id.
    public var userID: String
    public var kind: TrackKind
    public var codec: NegotiatedStream.Codec

    public init(userID: String, kind: TrackKind, codec: NegotiatedStream.Codec) {
        self.userID = userID
        self.kind = kind
        self.codec = codec
    }

    public var description: String { "\(userID)/\(kind.rawValue) \(codec.rawValue)" }
}
