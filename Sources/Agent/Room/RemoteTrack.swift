import Synchronization

/// One subscribed track of a remote participant, and the sinks it feeds.
///
/// The channel creates it when the track is subscribed and hands it every frame of the track
/// with ``deliver(_:)`` on its transport loop; user code attaches sinks (``RemoteAudioSink``,
/// ``RemoteVideoSink``, ``RemoteTrackEncodedSink`` or its own ``RemoteTrackSink``) and may mute
/// the track.
///
/// **Mute** is local: frames still arrive from the room (the subscription stays, so unmuting is
/// instant), but a muted track forwards nothing to its sinks and so costs no decoding. Unmuting
/// resumes cleanly: before the next frame every sink is told to ``RemoteTrackSink/resume()``, so
/// audio restarts on the RTP timeline without a burst of catch-up audio, and video waits for a
/// keyframe and asks for one.
///
/// **Threading.** ``mute()``, ``unmute()``, ``add(_:)`` and ``remove(_:)`` are safe from any
/// thread and take effect from the next frame. ``deliver(_:)``, ``frameLost()`` and
/// ``finish()`` are the channel's. A channel's track runs its sinks on one ``WorkerLane`` of
/// ``WorkerLanes/shared``, taken in turn and kept for the track's life (so its frames stay in
/// order; other tracks may share the lane), never on the transport loop that delivers the
/// frames: decoding there would hold up ICE, DTLS and SRTP for the whole connection. The lane holds a bounded queue; a frame that finds it full is dropped
/// and counted (``Counters/framesDroppedLaneFull``), and the sinks are told of it as of a lost
/// frame (video waits for a keyframe and asks for one, audio conceals the gap). A frame keeps
/// its RTP and wall times whichever thread decodes it. A track no channel feeds (one made with
/// ``init(participantID:kind:codec:)`` alone) calls its sinks on the calling thread, outside any
/// lock.
public final class RemoteTrack: Sendable {
    /// What the track forwarded and held back.
    public struct Counters: Sendable, Equatable {
        /// Frames handed to the sinks.
        public var framesForwarded = 0
        /// Frames that arrived while muted and went nowhere.
        public var framesSkippedMuted = 0
        public var mutes = 0
        public var unmutes = 0
        /// Frames dropped before the sinks because the track's worker lane was full (its sinks
        /// fell behind); the sinks took the next frame as following a loss.
        public var framesDroppedLaneFull = 0
    }

    private struct State {
        var sinks: [any RemoteTrackSink] = []
        var muted = false
        /// Set by unmute; the next frame first tells the sinks to resume.
        var resumePending = false
        var finished = false
        var counters = Counters()
        /// Asks the sender for a keyframe; set by the channel that delivers the track.
        var keyframeHandler: (@Sendable () -> Void)?
        /// Where the sinks run; nil: on the caller's thread. Set by the channel.
        var lane: WorkerLane?
        /// A frame was lost (or dropped at the lane) since the last one the sinks got: the next
        /// job tells them first. Only used with a lane.
        var lossPending = false
        /// The engine's render processing, for audio sinks made without their own. Set by the channel.
        var defaultAudioProcessor: AudioProcessorFactory?
    }

    public let participantID: String
    public let kind: MediaKind
    public let codec: MediaCodec
    private let state = Mutex(State())

    public init(participantID: String, kind: MediaKind, codec: MediaCodec) {
        self.participantID = participantID
        self.kind = kind
        self.codec = codec
    }

    // MARK: User side

    public var isMuted: Bool { state.withLock { $0.muted } }
    public var counters: Counters { state.withLock { $0.counters } }
    public var sinks: [any RemoteTrackSink] { state.withLock { $0.sinks } }

    /// Attaches a sink; it gets frames from the next one on. Adding one twice has no effect.
    /// A video sink asks the sender for keyframes through the track (see ``requestKeyframe()``).
    /// An audio sink made without a processor takes the engine's default render processing here,
    /// before its first frame (see ``AudioProcessingDefaults``).
    public func add(_ sink: any RemoteTrackSink) {
        if let audio = sink as? RemoteAudioSink, let factory = state.withLock({ $0.defaultAudioProcessor }) {
            audio.adoptDefaultProcessor(factory)
        }
        let added = state.withLock { state in
            guard !state.sinks.contains(where: { $0 === sink }) else { return false }
            state.sinks.append(sink)
            return true
        }
        if added { sink.attached { [weak self] in self?.requestKeyframe() } }
    }

    /// Asks the sender for a keyframe (PLI, then FIR while none comes). Sinks on the track do
    /// this themselves when they start waiting for one; a no-op for a track no channel feeds.
    public func requestKeyframe() {
        let handler = state.withLock { $0.finished ? nil : $0.keyframeHandler }
        handler?()
    }

    /// What the track's decoding sinks report: frames decoded by its video sinks and the level
    /// of its first audio sink; nil where no such sink is attached.
    public var decodingFigures: (framesDecoded: Int?, audioLevel: Double?) {
        var framesDecoded: Int?
        var audioLevel: Double?
        for sink in sinks {
            if let video = sink as? RemoteVideoSink {
                framesDecoded = (framesDecoded ?? 0) + video.counters.framesDecoded
            } else if audioLevel == nil, let audio = sink as? RemoteAudioSink {
                audioLevel = audio.level.current.linear
            }
        }
        return (framesDecoded, audioLevel)
    }

    /// Detaches a sink and finishes it (its stream ends), after the frames already on their way
    /// to it.
    public func remove(_ sink: any RemoteTrackSink) {
        let (removed, lane) = state.withLock { state -> (Bool, WorkerLane?) in
            guard let index = state.sinks.firstIndex(where: { $0 === sink }) else { return (false, nil) }
            state.sinks.remove(at: index)
            return (true, state.lane)
        }
        if removed { Self.run(on: lane) { sink.finish() } }
    }

    /// Stops forwarding frames to the sinks. Idempotent.
    public func mute() {
        state.withLock { state in
            guard !state.muted else { return }
            state.muted = true
            state.counters.mutes += 1
        }
    }

    /// Forwards frames again, the sinks resuming cleanly. Idempotent.
    public func unmute() {
        state.withLock { state in
            guard state.muted else { return }
            state.muted = false
            state.resumePending = true
            state.counters.unmutes += 1
        }
    }

    // MARK: Channel side

    /// Where ``requestKeyframe()`` goes: the channel's receive path for this track. Sinks on a
    /// lane call it from there, so the handler must hand the request to the transport loop
    /// (``JanusAudience/requestKeyframe(participantID:kind:)`` does).
    func setKeyframeHandler(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.keyframeHandler = handler }
    }

    /// What audio sinks added from now on are processed with when they have no processor of their own.
    func setDefaultAudioProcessor(_ factory: AudioProcessorFactory) {
        state.withLock { $0.defaultAudioProcessor = factory }
    }

    /// Runs the sinks on `lane` from the next frame on, instead of on the caller's thread.
    func runSinks(on lane: WorkerLane) {
        state.withLock { $0.lane = lane }
    }

    /// The lane the sinks run on; nil when they run on the caller's thread.
    var lane: WorkerLane? { state.withLock { $0.lane } }

    /// Hands one frame to every sink, unless muted. With a lane the sinks get it there; when the
    /// lane is full the frame is dropped and counted, and the sinks take the next one as
    /// following a loss.
    public func deliver(_ frame: RemoteFrame) {
        let work = state.withLock { state -> (sinks: [any RemoteTrackSink], resume: Bool, lost: Bool)? in
            guard !state.finished else { return nil }
            guard !state.muted else {
                state.counters.framesSkippedMuted += 1
                return nil
            }
            let job = (sinks: state.sinks, resume: state.resumePending, lost: state.lossPending)
            guard let lane = state.lane, !job.sinks.isEmpty else {
                state.counters.framesForwarded += 1
                state.resumePending = false
                state.lossPending = false
                return job
            }
            // Queued under the lock, so the pending flags and the queue agree for the next frame.
            let queued = lane.tryEnqueue { Self.feed(frame, to: job.sinks, resume: job.resume, lost: job.lost) }
            guard queued else {
                state.counters.framesDroppedLaneFull += 1
                state.lossPending = true
                return nil
            }
            state.counters.framesForwarded += 1
            state.resumePending = false
            state.lossPending = false
            return nil
        }
        if let work { Self.feed(frame, to: work.sinks, resume: work.resume, lost: work.lost) }
    }

    /// The receiver gave up on a frame of this track. While muted nothing is told: the unmute
    /// that follows makes video wait for a keyframe anyway. With a lane the sinks hear of it just
    /// before the next frame (the channel delivers that frame right after), in order.
    public func frameLost() {
        let sinks = state.withLock { state -> [any RemoteTrackSink] in
            guard !state.muted, !state.finished else { return [] }
            guard state.lane == nil else {
                state.lossPending = true
                return []
            }
            return state.sinks
        }
        for sink in sinks { sink.frameLost() }
    }

    /// The track was unsubscribed: every sink finishes, after the frames already on their way
    /// to it. Idempotent.
    public func finish() {
        let (sinks, lane) = state.withLock { state -> ([any RemoteTrackSink], WorkerLane?) in
            guard !state.finished else { return ([], nil) }
            state.finished = true
            state.keyframeHandler = nil
            defer { state.sinks.removeAll() }
            return (state.sinks, state.lane)
        }
        guard !sinks.isEmpty else { return }
        Self.run(on: lane) { for sink in sinks { sink.finish() } }
    }

    private static func feed(_ frame: RemoteFrame, to sinks: [any RemoteTrackSink], resume: Bool, lost: Bool) {
        for sink in sinks {
            if lost { sink.frameLost() }
            if resume { sink.resume() }
            sink.receive(frame)
        }
    }

    /// Runs `work` behind what is queued on `lane` (whatever its bound: an end is never dropped),
    /// or here when there is no lane or it was shut down.
    private static func run(on lane: WorkerLane?, _ work: @escaping @Sendable () -> Void) {
        if let lane, lane.enqueue(work) { return }
        work()
    }
}
