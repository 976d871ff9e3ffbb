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
/// ``finish()`` are the channel's: they call the sinks on the calling thread, outside any lock.
public final class RemoteTrack: Sendable {
    /// What the track forwarded and held back.
    public struct Counters: Sendable, Equatable {
        /// Frames handed to the sinks.
        public var framesForwarded = 0
        /// Frames that arrived while muted and went nowhere.
        public var framesSkippedMuted = 0
        public var mutes = 0
        public var unmutes = 0
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
    }

    public let participantID: String
    public let kind: TrackKind
    public let codec: NegotiatedStream.Codec
    private let state = Mutex(State())

    public init(participantID: String, kind: TrackKind, codec: NegotiatedStream.Codec) {
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
    public func add(_ sink: any RemoteTrackSink) {
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

    /// Detaches a sink and finishes it (its stream ends).
    public func remove(_ sink: any RemoteTrackSink) {
        let removed = state.withLock { state in
            guard let index = state.sinks.firstIndex(where: { $0 === sink }) else { return false }
            state.sinks.remove(at: index)
            return true
        }
        if removed { sink.finish() }
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

    /// Where ``requestKeyframe()`` goes: the channel's receive path for this track.
    func setKeyframeHandler(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.keyframeHandler = handler }
    }

    /// Hands one frame to every sink, unless muted.
    public func deliver(_ frame: RemoteFrame) {
        let (sinks, resume) = state.withLock { state -> ([any RemoteTrackSink], Bool) in
            guard !state.finished else { return ([], false) }
            guard !state.muted else {
                state.counters.framesSkippedMuted += 1
                return ([], false)
            }
            state.counters.framesForwarded += 1
            defer { state.resumePending = false }
            return (state.sinks, state.resumePending)
        }
        for sink in sinks {
            if resume { sink.resume() }
            sink.receive(frame)
        }
    }

    /// The receiver gave up on a frame of this track. While muted nothing is told: the unmute
    /// that follows makes video wait for a keyframe anyway.
    public func frameLost() {
        let sinks = state.withLock { state in state.muted || state.finished ? [] : state.sinks }
        for sink in sinks { sink.frameLost() }
    }

    /// The track was unsubscribed: every sink finishes. Idempotent.
    public func finish() {
        let sinks = state.withLock { state -> [any RemoteTrackSink] in
            guard !state.finished else { return [] }
            state.finished = true
            state.keyframeHandler = nil
            defer { state.sinks.removeAll() }
            return state.sinks
        }
        for sink in sinks { sink.finish() }
    }
}
