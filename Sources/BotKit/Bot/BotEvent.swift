import Agent
import Foundation

/// What happens to a bot and around it, in order, on ``Bot/events``.
public enum BotEvent: Sendable {
    /// Publishing: the media connection is up and the tracks are live.
    case connected(publisherID: String)
    /// Someone in the room (seen only when the bot ``BotConfiguration/listens``).
    case participantJoined(id: String, display: String)
    case participantLeft(id: String)
    /// A track of another participant that the bot subscribed to (only when the bot
    /// ``BotConfiguration/listens``). Attach sinks (e.g. ``RemoteAudioSink``) to `track` to
    /// receive its media; it finishes when unsubscribed. Comes after that participant's
    /// ``participantJoined(id:display:)``.
    case trackSubscribed(participantID: String, display: String, track: RemoteTrack)
    /// A data message from another participant. Janus relays data without its sender, so
    /// `from` is nil unless the room tells who sent it.
    case dataReceived(from: String?, payload: DataChannelMessage.Payload)
    /// Every ``BotConfiguration/statsInterval``: what we publish (bitrate, loss and RTT from
    /// the receiver's reports) and, when the bot listens, what we receive.
    case statistics(ChannelStatistics)
    /// A receiver asked for a keyframe of our video (PLI or FIR).
    case keyframeRequested
    /// One playlist entry finished playing (`pass` counts loops from 0).
    case fileEnded(entry: Int, pass: Int)
    /// File playback is over: the list ended, its duration passed, or a file could not be read.
    case playbackFinished(PlaybackEnd)
    /// Janus dropped the bot (signaling closed, a hangup): it is rejoining, attempt `attempt`
    /// (see ``BotConfiguration/reconnect``). Media pushed meanwhile goes nowhere.
    case reconnecting(attempt: Int, reason: String)
    /// Back in the room, publishing again under a new participant id.
    case reconnected(publisherID: String)
    /// The bot is out of the room for good: the room was destroyed, a rejoin was refused, or
    /// reconnecting gave up. Call ``Bot/stop()``.
    case connectionLost(String)
    /// The bot stopped publishing; no more events follow.
    case stopped
    /// The consumer of ``Bot/events`` (or the bot's own reading of its channel) fell so far behind
    /// that `count` events that belonged here were discarded (see ``EventBuffer``).
    case eventsLost(count: Int)

    public enum PlaybackEnd: Sendable, Equatable {
        case endOfFiles
        case duration
        case readError(String)
    }
}
