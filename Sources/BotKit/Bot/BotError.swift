import Agent

/// Why a bot could not start or do what was asked, for reasons of its own. What the room refuses or
/// what fails on the way to it (codecs, the media connection, the token) stays an ``AgentError``,
/// so it reads the same for a bot as for any other join.
public enum BotError: Error, Equatable, CustomStringConvertible {
    /// Two sources for one kind of track (e.g. an audio track and an audio file).
    case conflictingSources(String)
    /// Nothing to publish.
    case nothingToPublish
    /// A track encodes a codec the sender cannot packetize yet (VP9: there is no RFC 9628
    /// packetizer); encode VP8 or H.264, or leave the choice to the room.
    case cannotSend(MediaCodec)
    case notStarted
    case alreadyStarted
    /// No data channel to send on (Janus refused it, or it is not open yet).
    case dataChannelUnavailable

    public var description: String {
        switch self {
        case .conflictingSources(let what): return "two sources for one track: \(what)"
        case .nothingToPublish: return "nothing to publish"
        case .cannotSend(let codec): return "\(codec.encodingName) cannot be sent yet (no RTP packetizer for it); use VP8 or H.264"
        case .notStarted: return "the bot has not started"
        case .alreadyStarted: return "the bot has already started"
        case .dataChannelUnavailable: return "no open data channel"
        }
    }
}
