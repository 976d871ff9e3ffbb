import Synchronization

/// Decodes one remote video track (VP8 or VP9 with libvpx, H.264 with libopenh264) into I420
/// pictures for user code.
///
/// Nothing is decoded before the first keyframe, and after a lost frame (``frameLost()``), a
/// decode error or an unmute the sink drops frames until the next keyframe: decoding on from a
/// broken reference gives smeared garbage. Each time it starts such a wait it calls
/// `onKeyframeNeeded` once with the reason, which the channel turns into a PLI (its
/// ``KeyframeRequester`` repeats and escalates while ``isWaitingForKeyframe`` stays true).
///
/// The decoder follows the frames' codec: a change (renegotiation) starts a new decoder, which
/// waits for a keyframe again.
///
/// **Threading.** Decoding happens inside ``receive(_:)`` on the caller's thread (for a
/// channel's track, the track's ``WorkerLane``, off the transport loop); pictures and
/// `onKeyframeNeeded` are called there too, after the sink's lock is released, and pictures
/// keep their frame's RTP and wall times. Both must return quickly. The request to the sender
/// goes through the track to the channel, which hands it to the transport loop. ``counters``
/// and ``isWaitingForKeyframe`` can be read from any thread.
public final class RemoteVideoSink: RemoteTrackSink {
    public typealias KeyframeReason = RemoteVideoKeyframeGate.Reason

    private struct State {
        var decoder: VideoDecoder?
        var gate = RemoteVideoKeyframeGate()
        var counters = RemoteVideoSinkCounters()
        var finished = false
    }

    /// libvpx decoder threads (VP8, VP9; libopenh264 decodes H.264 on one); more help only for large pictures.
    public let decoderThreads: Int
    private let delivery: RemoteTrackDelivery<RemoteVideoFrame>
    private let keyframes: KeyframeAsker
    private let state = Mutex(State())

    public init(decoderThreads: Int = 1, delivery: RemoteTrackDelivery<RemoteVideoFrame>,
                onKeyframeNeeded: (@Sendable (KeyframeReason) -> Void)? = nil) {
        self.decoderThreads = max(1, decoderThreads)
        self.delivery = delivery
        keyframes = KeyframeAsker(onKeyframeNeeded: onKeyframeNeeded)
    }

    /// A sink and the stream it fills, holding at most `bufferLimit` pictures (the oldest is
    /// dropped and counted when the consumer lags).
    public static func streaming(bufferLimit: Int = 8, decoderThreads: Int = 1,
                                 onKeyframeNeeded: (@Sendable (KeyframeReason) -> Void)? = nil)
        throws(RemoteTrackError) -> (RemoteVideoSink, AsyncStream<RemoteVideoFrame>) {
        let (delivery, frames) = try RemoteTrackDelivery<RemoteVideoFrame>.bounded(bufferLimit)
        return (RemoteVideoSink(decoderThreads: decoderThreads, delivery: delivery, onKeyframeNeeded: onKeyframeNeeded), frames)
    }

    public var counters: RemoteVideoSinkCounters {
        var counters = state.withLock { $0.counters }
        counters.picturesDropped = delivery.dropped
        return counters
    }

    /// True while frames are being dropped until a keyframe arrives.
    public var isWaitingForKeyframe: Bool { state.withLock { $0.gate.isWaiting } }

    public func receive(_ frame: RemoteFrame) {
        let (pictures, request) = state.withLock { state in Self.decode(frame, state: &state, threads: decoderThreads) }
        if let request { keyframes.ask(request) }
        for picture in pictures { delivery.deliver(picture) }
    }

    public func attached(keyframeRequest: @escaping @Sendable () -> Void) {
        keyframes.attach(keyframeRequest)
    }

    /// The receiver gave up on a frame: wait for a keyframe and ask for one.
    public func frameLost() {
        interrupt(.frameLost)
    }

    /// Unmuted: frames were skipped, so wait for a keyframe and ask for one.
    public func resume() {
        interrupt(.resumed)
    }

    /// Finishes a stream; later frames are ignored. Idempotent.
    public func finish() {
        state.withLock { state in
            state.finished = true
            state.decoder = nil
        }
        delivery.finish()
    }

    private func interrupt(_ reason: KeyframeReason) {
        let request = state.withLock { state -> KeyframeReason? in
            guard !state.finished else { return nil }
            return Self.interrupt(&state, reason)
        }
        if let request { keyframes.ask(request) }
    }

    // MARK: Decoding (with the lock held)

    private static func decode(_ frame: RemoteFrame, state: inout State,
                               threads: Int) -> ([RemoteVideoFrame], KeyframeReason?) {
        guard !state.finished else { return ([], nil) }
        state.counters.framesReceived += 1
        guard frame.kind == .video, frame.codec.kind == .video else {
            state.counters.framesUnsupported += 1
            return ([], nil)
        }
        var request: KeyframeReason?
        if state.decoder?.codec != frame.codec {
            if state.decoder != nil { request = interrupt(&state, .codecChanged) }
            do {
                state.decoder = try VideoDecoder(codec: frame.codec, threads: threads)
            } catch {
                state.decoder = nil
                if case .unsupported = error {
                    state.counters.framesUnsupported += 1
                    return ([], request)
                }
            }
        }
        let admission = state.gate.admit(isKeyframe: frame.isKeyframe)
        if let reason = admission.request {
            state.counters.keyframeRequests += 1
            request = reason
        }
        guard admission.pass else {
            state.counters.framesSkippedWaitingForKeyframe += 1
            return ([], request)
        }
        guard let decoder = state.decoder else {
            state.counters.decodeErrors += 1
            return ([], interrupt(&state, .decodeError) ?? request)
        }
        let images: [I420Frame]
        do {
            images = try decoder.decode(frame.bytes)
        } catch {
            state.counters.decodeErrors += 1
            return ([], interrupt(&state, .decodeError) ?? request)
        }
        state.counters.framesDecoded += 1
        if frame.isKeyframe { state.counters.keyframesDecoded += 1 }
        state.counters.picturesDelivered += images.count
        if let last = images.last {
            state.counters.width = last.width
            state.counters.height = last.height
        }
        let pictures = images.map { image in
            RemoteVideoFrame(participantID: frame.participantID, image: image, rtpTimestamp: frame.rtpTimestamp,
                             clockRate: frame.clockRate, wallTimeNanoseconds: frame.wallTimeNanoseconds,
                             mappedBySenderReport: frame.mappedBySenderReport, isKeyframe: frame.isKeyframe)
        }
        return (pictures, request)
    }

    private static func interrupt(_ state: inout State, _ reason: KeyframeReason) -> KeyframeReason? {
        let request = state.gate.interrupt(reason)
        if request != nil { state.counters.keyframeRequests += 1 }
        return request
    }
}
