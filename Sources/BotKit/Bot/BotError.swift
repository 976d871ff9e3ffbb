import Agent

/// Why a bot could not start or do what was asked, for reasons of its own. What the room refuses or
/// what fails on the way to it (codecs, the media connection, the token) stays an ``AgentError``,
/// so it reads the same for a bot as for any other join.
public enum BotError: Error, Equatable, CustomStringConvertible {
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
        case .conflictingSources(let what): return "two sources for one track: \(what)"
        case .nothingToPublish: return "nothing to publish"
        case .notStarted: return "the bot has not started"
        case .alreadyStarted: return "the bot has already started"
        case .dataChannelUnavailable: return "no open data channel"
        }
    }
}
