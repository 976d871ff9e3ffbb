import AgentCore

/// Why a ``JanusPublisher`` could not publish or send.
public enum JanusPublisherError: Error, Equatable, Sendable {
    /// The room does not take these tracks' codecs; `allowed` is what it takes (nil when the
    /// room is not listed, e.g. a private room).
    case codecRefused(refused: [TrackOffer], allowed: AllowedCodecs?)
    /// The media connection to Janus did not come up.
    case connectionFailed(String)
    /// No data channel to send on (not offered, refused by Janus, or not open yet).
    case dataChannelUnavailable
    case notStarted
}
