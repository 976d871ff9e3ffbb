import Agent

/// Why a bot could not start or do what was asked.
public enum BotError: Error, Equatable, CustomStringConvertible {
    /// The room does not take these tracks' codecs; `allowed` is what it does take (nil when the
    /// room is not listed, e.g. a private room).
    case codecRefused(refused: [OfferBuilder.Track], allowed: VideoRoomCodecs?)
    /// The media connection to Janus did not come up.
    case connectionFailed(String)
    /// Two sources for one kind of track (e.g. an audio track and an audio file).
    case conflictingSources(String)
    /// Nothing to publish.
    case nothingToPublish
    case notStarted
    case alreadyStarted
    /// No data channel to send on (Janus refused it, or it is not open yet).
    case dataChannelUnavailable

    public var description: String {
        switch self {
        case .codecRefused(let refused, let allowed):
            let ours = refused.map { "\($0.codec.rawValue) \($0.kind.rawValue)" }.joined(separator: " and ")
            return "the room does not allow \(ours) (it allows: \(allowed.map(String.init(describing:)) ?? "unknown"))"
        case .connectionFailed(let reason): return "the media connection failed: \(reason)"
        case .conflictingSources(let what): return "two sources for one track: \(what)"
        case .nothingToPublish: return "nothing to publish"
        case .notStarted: return "the bot has not started"
        case .alreadyStarted: return "the bot has already started"
        case .dataChannelUnavailable: return "no open data channel"
        }
    }
}
