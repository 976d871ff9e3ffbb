import Agent

/// How a bot's events queue for a slow consumer (see ``EventBuffer``): the lifecycle and the
/// roster are kept; statistics, keyframe requests and per-file progress are snapshots, of which the
/// newest pending one says all (a looped one-frame file ends 50 times a second); data messages are
/// kept up to their own limit, as a channel's are.
extension BotEvent: BufferedEvent {
    public var bufferClass: EventBufferClass {
        switch self {
        case .connected, .participantJoined, .participantLeft, .trackSubscribed, .playbackFinished, .reconnecting, .reconnected,
            .connectionLost, .stopped, .eventsLost:
            .kept
        case .dataReceived:
            .limited
        case .statistics:
            .newest(kind: 0)
        case .keyframeRequested:
            .newest(kind: 1)
        case .fileEnded:
            .newest(kind: 2)
        }
    }
}
