import Foundation
import Synchronization

/// The event path of a ``Channel``: takes the sources' ``RoomEvent``s on whatever thread they
/// happen (frames and statistics on the transport loop, roster events from the control path),
/// hands each to the raw sink, maps the rest to ``ChannelEvent``s and yields them in order.
///
/// Frames pass straight through to the raw sink with no lock. Everything else takes one lock,
/// under which it is mapped and yielded, so events from two threads cannot overtake each other.
/// While the channel is still connecting, mapped events are held and follow `connected`.
/// Events wait for their consumer in an ``EventBuffer``: the roster is never dropped, statistics
/// coalesce, and what that costs is counted in each report's ``ChannelStatistics/events``.
/// Each subscribed track runs its sinks (the decoders) on a lane of ``WorkerLanes`` taken in
/// turn, so frames leave the transport loop as soon as the track has queued them.
final class ChannelCore: Sendable {
    private struct State {
        var mapper = ChannelEventMapper()
        var collector = StatisticsCollector()
        /// Events mapped while connecting, released after `connected`; nil once connected.
        var held: [ChannelEvent]? = []
        var publishing: PublishSession?
        var publishedTracks: [TrackOffer] = []
        var finished = false
        /// Streams opened after the first (a delegate's), fed the same events from then on.
        var subscribers: [EventBuffer<ChannelEvent>] = []
    }

    let room: String
    let statsInterval: Duration
    private let rawSink: (@Sendable (RoomEvent) -> Void)?
    private let events: EventBuffer<ChannelEvent>
    /// Where the tracks' sinks run; nil: on the thread that delivers the frames.
    private let lanes: WorkerLanes?
    /// The engine's default render processing, given to each audio track for its sinks.
    private let renderProcessor: AudioProcessorFactory?
    private let state = Mutex(State())
    /// Asks a remote participant's sender for a keyframe (set by the channel's receive path).
    private let keyframeRequester = Mutex<LockedCallback<@Sendable (String, MediaKind) -> Void>?>(nil)
    /// Active speaker detection, when the options ask for it.
    let speakers: ChannelSpeakers?

    init(room: String, statsInterval: Duration, rawSink: (@Sendable (RoomEvent) -> Void)?, events: EventBuffer<ChannelEvent>,
         lanes: WorkerLanes? = .shared, speakers: ChannelSpeakers? = nil, renderProcessor: AudioProcessorFactory? = nil) {
        self.speakers = speakers
        self.room = room
        self.statsInterval = statsInterval
        self.rawSink = rawSink
        self.events = events
        self.lanes = lanes
        self.renderProcessor = renderProcessor
    }

    var connectionState: ConnectionState? { state.withLock { $0.mapper.state } }
    var users: [User] { state.withLock { $0.mapper.presentUsers } }
    var isFinished: Bool { state.withLock { $0.finished } }
    /// What the channel's streams (``Channel/events`` and a delegate's) coalesced or dropped so far.
    var eventCounts: EventBufferCounts { state.withLock { eventCounts(in: $0) } }

    /// The sink every source of the channel reports to.
    func receive(_ event: RoomEvent) {
        rawSink?(event)
        switch event {
        case .frame(let frame):
            // The track queues the frame for its sinks on its lane (outside this lock).
            guard let track = state.withLock({ $0.mapper.track(of: frame.participantID, kind: frame.kind) }) else { return }
            if frame.followsLoss { track.frameLost() }
            track.deliver(frame)
        case .statistics(let id, let kind, let statistics):
            let now = ContinuousClock.now
            state.withLock { $0.collector.record(.init(participantID: id, kind: kind), statistics, at: now) }
        default:
            state.withLock { state in deliver(state.mapper.map(event), in: &state) }
        }
    }

    /// Reports a state of the channel's own (connecting, connected, left). `connected` releases
    /// what was held while connecting.
    func transition(to next: ConnectionState) {
        state.withLock { state in
            deliver(state.mapper.transition(to: next), in: &state)
            guard next == .connected, let held = state.held else { return }
            state.held = nil
            for event in held { yield(event, in: state) }
        }
    }

    /// Yields an event of the channel's own (token warnings, statistics) unless it has finished.
    func emit(_ event: ChannelEvent) {
        state.withLock { state in deliver([event], in: &state) }
    }

    /// The host's publishing session, for the statistics of our tracks.
    func setPublishing(_ session: PublishSession, tracks: [TrackOffer]) {
        state.withLock { state in
            state.publishing = session
            state.publishedTracks = tracks
        }
    }

    /// Builds and yields a statistics report. Runs on the channel's transport loop (the
    /// publishing session's counters live there).
    func reportStatistics(date: Date = Date()) {
        let (session, tracks) = state.withLock { ($0.publishing, $0.publishedTracks) }
        var published: [(TrackOffer, SendStreamStatistics)] = []
        if let session {
            for track in tracks {
                if let statistics = session.statistics(mid: track.mid) { published.append((track, statistics)) }
            }
        }
        let now = ContinuousClock.now
        state.withLock { state in
            guard !state.finished, state.held == nil else { return }
            let mapper = state.mapper
            var report = state.collector.report(
                room: room, users: mapper.presentUsers, tracks: { mapper.track(of: $0, kind: $1) }, published: published, now: now,
                date: date, interval: statsInterval)
            report.events = eventCounts(in: state)
            if let speakers {
                for (index, participant) in report.participants.enumerated() {
                    for (trackIndex, track) in participant.tracks.enumerated() where track.kind == .audio {
                        report.participants[index].tracks[trackIndex].speakingTime = speakers.speakingTime(of: participant.user.id) ?? .zero
                        report.participants[index].tracks[trackIndex].speakingSource = speakers.source(of: participant.user.id)
                    }
                }
            }
            yield(.statsReport(report), in: state)
        }
    }

    /// Re-evaluates the active speakers (on a timer) and reports a change.
    func evaluateSpeakers() {
        guard let speakers else { return }
        state.withLock { state in
            guard !state.finished, state.held == nil, let ranking = speakers.evaluate(atMs: speakers.nowMs) else { return }
            let users = ranking.compactMap { state.mapper.users[$0] }
            yield(.activeSpeakersChanged(users), in: state)
        }
    }

    /// Where keyframe requests of the tracks' sinks go. They come from the tracks' lanes, so the
    /// requester must hand them to the transport loop itself.
    func setKeyframeRequester(_ requester: @escaping @Sendable (String, MediaKind) -> Void) {
        keyframeRequester.withLock { $0 = LockedCallback(requester) }
    }

    /// Another stream of the channel's events from now on (a delegate's); one that finished
    /// already is returned finished.
    func subscribe() -> AsyncStream<ChannelEvent> {
        let buffer = EventBuffer<ChannelEvent>()
        let added = state.withLock { state in
            guard !state.finished else { return false }
            state.subscribers.append(buffer)
            return true
        }
        if !added { buffer.finish() }
        return buffer.stream
    }

    /// Ends the streams (after a final `disconnected`, or when the channel is dropped).
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            state.held = nil
            defer { state.subscribers.removeAll() }
            return state.subscribers
        }
        events.finish()
        for subscriber in subscribers { subscriber.finish() }
    }

    private func yield(_ event: ChannelEvent, in state: State) {
        events.yield(event)
        for subscriber in state.subscribers { subscriber.yield(event) }
    }

    private func eventCounts(in state: State) -> EventBufferCounts {
        state.subscribers.reduce(events.counts) { $0 + $1.counts }
    }

    private func deliver(_ events: [ChannelEvent], in state: inout State) {
        guard !state.finished else { return }
        for event in events {
            switch event {
            case .trackSubscribed(let user, let track):
                state.collector.trackStarted(.init(participantID: user.id, kind: track.kind), at: .now)
                let (id, kind) = (user.id, track.kind)
                // Called from the track's lane: the requester hands it to the transport loop.
                track.setKeyframeHandler { [weak self] in self?.requestKeyframe(participantID: id, kind: kind) }
                // Before any frame can find the track: frames look it up under this same lock.
                if let lanes { track.runSinks(on: lanes.nextLane()) }
                if kind == .audio, let speakers { track.add(speakers.sink(for: id)) }
                // For the user's RemoteAudioSinks; the speakers' own sink hears the audio as it came.
                if let renderProcessor, kind == .audio { track.setDefaultAudioProcessor(renderProcessor) }
            case .trackUnsubscribed(let user, let track):
                state.collector.trackEnded(.init(participantID: user.id, kind: track.kind))
                if track.kind == .audio { speakers?.remove(user.id) }
                // Its sinks end with it (idempotent; the sinks are called outside their lock).
                track.finish()
            default:
                break
            }
            if state.held != nil, !Self.passesWhileConnecting(event) {
                state.held?.append(event)
            } else {
                yield(event, in: state)
            }
            if case .connectionStateChanged(.disconnected) = event {
                state.finished = true
                state.held = nil
                self.events.finish()
                for subscriber in state.subscribers { subscriber.finish() }
                state.subscribers.removeAll()
                return
            }
        }
    }

    private func requestKeyframe(participantID: String, kind: MediaKind) {
        keyframeRequester.withLock { $0 }?.call(participantID, kind)
    }

    /// State changes are never held: `connecting` must come first, a failure's `disconnected` at once.
    private static func passesWhileConnecting(_ event: ChannelEvent) -> Bool {
        if case .connectionStateChanged = event { return true }
        return false
    }
}
