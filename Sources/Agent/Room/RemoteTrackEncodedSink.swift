import Synchronization

/// Hands a remote track's frames on still encoded, as they came off the jitter buffer: for
/// writing files, relaying, or a decoder of the user's own.
///
/// Audio passes as it is. Video, by default, starts at a keyframe and after a lost frame or an
/// unmute waits for the next one (asking once through `onKeyframeNeeded`), so what comes out can
/// always be decoded from its first frame; pass `waitsForKeyframe: false` to get every frame.
///
/// **Threading.** ``receive(_:)`` delivers on the caller's thread (for a channel's track, the
/// track's ``WorkerLane``); a handler must return quickly. ``counters`` can be read from any thread.
public final class RemoteTrackEncodedSink: RemoteTrackSink {
    public struct Counters: Sendable, Equatable {
        public var framesForwarded = 0
        public var framesSkippedWaitingForKeyframe = 0
        public var keyframeRequests = 0
        /// Frames a full stream buffer pushed out before the consumer took them.
        public var framesDropped = 0
    }

    private struct State {
        var gate = RemoteVideoKeyframeGate()
        var counters = Counters()
        var finished = false
        /// The kind of the frames seen; keyframes only matter for video.
        var kind: MediaKind?
    }

    public let waitsForKeyframe: Bool
    private let delivery: RemoteTrackDelivery<RemoteFrame>
    private let keyframes: KeyframeAsker
    private let state = Mutex(State())

    public init(waitsForKeyframe: Bool = true, delivery: RemoteTrackDelivery<RemoteFrame>,
                onKeyframeNeeded: (@Sendable (RemoteVideoKeyframeGate.Reason) -> Void)? = nil) {
        self.waitsForKeyframe = waitsForKeyframe
        self.delivery = delivery
        keyframes = KeyframeAsker(onKeyframeNeeded: onKeyframeNeeded)
    }

    /// A sink and the stream it fills, holding at most `bufferLimit` frames.
    public static func streaming(bufferLimit: Int = 64, waitsForKeyframe: Bool = true,
                                 onKeyframeNeeded: (@Sendable (RemoteVideoKeyframeGate.Reason) -> Void)? = nil)
        throws(RemoteTrackError) -> (RemoteTrackEncodedSink, AsyncStream<RemoteFrame>) {
        let (delivery, frames) = try RemoteTrackDelivery<RemoteFrame>.bounded(bufferLimit)
        return (RemoteTrackEncodedSink(waitsForKeyframe: waitsForKeyframe, delivery: delivery,
                                       onKeyframeNeeded: onKeyframeNeeded), frames)
    }

    public var counters: Counters {
        var counters = state.withLock { $0.counters }
        counters.framesDropped = delivery.dropped
        return counters
    }

    public func receive(_ frame: RemoteFrame) {
        let (pass, request) = state.withLock { state -> (Bool, RemoteVideoKeyframeGate.Reason?) in
            guard !state.finished else { return (false, nil) }
            state.kind = frame.kind
            guard waitsForKeyframe, frame.kind == .video else {
                state.counters.framesForwarded += 1
                return (true, nil)
            }
            let admission = state.gate.admit(isKeyframe: frame.isKeyframe)
            if admission.request != nil { state.counters.keyframeRequests += 1 }
            if admission.pass {
                state.counters.framesForwarded += 1
            } else {
                state.counters.framesSkippedWaitingForKeyframe += 1
            }
            return (admission.pass, admission.request)
        }
        if let request { keyframes.ask(request) }
        if pass { delivery.deliver(frame) }
    }

    public func attached(keyframeRequest: @escaping @Sendable () -> Void) {
        keyframes.attach(keyframeRequest)
    }

    public func frameLost() {
        interrupt(.frameLost)
    }

    public func resume() {
        interrupt(.resumed)
    }

    /// Finishes a stream; later frames are ignored. Idempotent.
    public func finish() {
        state.withLock { $0.finished = true }
        delivery.finish()
    }

    /// Video waits for the next keyframe; audio (and `waitsForKeyframe: false`) carries on.
    private func interrupt(_ reason: RemoteVideoKeyframeGate.Reason) {
        guard waitsForKeyframe else { return }
        let request = state.withLock { state -> RemoteVideoKeyframeGate.Reason? in
            guard !state.finished, state.kind == .video, let request = state.gate.interrupt(reason) else { return nil }
            state.counters.keyframeRequests += 1
            return request
        }
        if let request { keyframes.ask(request) }
    }
}
