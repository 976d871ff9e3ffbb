/// How a channel's events queue for a slow consumer (see ``EventBuffer``).
///
/// The roster and the connection state are kept: the order guarantees of ``ChannelEvent`` hang on
/// them, and a lost `userJoined` would leave a track without its user. A token warning is rare and
/// must be acted on, so it is kept too. Statistics are snapshots: only the newest pending one
/// matters. Data messages are not roster: nothing else depends on them, and their rate and size are
/// the remote side's choice, so they are kept in order up to a limit of their own, then dropped and
/// counted (the recorder takes every one from ``ChannelOptions/roomEventSink``, not from here).
extension ChannelEvent: BufferedEvent {
    public var bufferClass: EventBufferClass {
        switch self {
        case .connectionStateChanged, .userJoined, .trackSubscribed, .trackUnsubscribed, .userLeft, .tokenWillExpire, .eventsLost:
            .kept
        case .dataReceived:
            .limited
        case .statsReport:
            .newest(kind: 0)
        case .activeSpeakersChanged:
            .newest(kind: 1)
        }
    }
}
