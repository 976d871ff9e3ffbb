/// Why a bot could not start or do what was asked.
public enum BotError: Error, Equatable, CustomStringConvertible {
    /// The room does not take a codec we publish; `allowed` lists what it does take (empty when
    /// the room could not be asked).
    case codecRefused(codec: String, allowed: [String])
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
        case .codecRefused(let codec, let allowed):
            let list = allowed.isEmpty ? "unknown" : allowed.joined(separator: ", ")
            return "the room does not allow \(codec) (it allows: \(list))"
        case .connectionFailed(let reason): return "the media connection failed: \(reason)"
        case .conflictingSources(let what): return "two sources for one track: \(what)"
        case .nothingToPublish: return "nothing to publish"
        case .notStarted: return "the bot has not started"
        case .alreadyStarted: return "the bot has already started"
        case .dataChannelUnavailable: return "no open data channel"
        }
    }
}
