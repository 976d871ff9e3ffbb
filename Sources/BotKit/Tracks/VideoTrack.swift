import Agent
import Synchronization

/// A bot's own video: server code pushes raw I420 pictures in, and VP8 frames come out to a sink
/// that the sender (the Bot) sets.
///
/// ```
///   push(I420, capturedAt) ──▶ validate ──▶ rate limit ──▶ RTP time ──▶ VP8 encode ──▶ sink(EncodedFrame)
///        (caller's thread)       │ throws      │ drops        90 kHz       realtime       (same thread)
/// ```
///
/// - Encoding runs synchronously on the thread that calls ``push(_:capturedAt:)``; pushes from
///   several threads are serialized. The sink is called on that same thread, after encoding, so
///   it must be cheap: hand the frame to the network loop and return.
/// - Pictures of any size work, odd ones too. A picture of a new size re-creates the encoder and
///   comes out as a keyframe.
/// - Pictures pushed faster than ``Configuration/framesPerSecond`` are dropped before encoding.
/// - ``requestKeyframe()``, ``setBitrate(_:)``, ``setSink(_:)``, ``statistics`` and ``close()``
///   never wait for an encode in progress, so the network loop can call them (on PLI, FIR or a
///   bandwidth estimate) without stalling. Requests take effect at the next encoded frame.
public final class VideoTrack: Sendable {
    /// RTP clock rate for video (RFC 7741 §4.1: VP8 uses 90 kHz).
    public static let clockRate = 90_000
    /// Largest width or height VP8 can code (14-bit size fields).
    public static let maxDimension = 16_383

    /// Receives each encoded frame, on the pushing thread. It may call ``requestKeyframe()``,
    /// ``setBitrate(_:)``, ``statistics`` or ``close()``, but not ``push(_:capturedAt:)``.
    public typealias Sink = @Sendable (EncodedFrame) -> Void

    /// State used by pushes only. Its lock is held for a whole push, encode included, which is
    /// what serializes pushes.
    private struct Pipeline {
        /// nil once the track is closed.
        var encoder: VPXEncoder?
        var limiter: VideoFrameRateLimiter
        var timeline = VideoCaptureTimeline(clockRate: VideoTrack.clockRate)
        var appliedBitrate: Int
        var lastSize: (width: Int, height: Int)?
    }

    /// State shared with other threads. Its lock is only ever held briefly, never while encoding
    /// or calling the sink.
    private struct Shared {
        var configuration: Configuration
        var sink: Sink?
        var keyframeRequested = false
        var closed = false
        var statistics = Statistics()
    }

    private let pipeline: Mutex<Pipeline>
    private let shared: Mutex<Shared>

    /// Creates a track; the VP8 encoder itself starts with the first picture.
    public init(configuration: Configuration = Configuration()) throws(VideoTrackError) {
        try configuration.validate()
        let encoder: VPXEncoder
        do {
            encoder = try VPXEncoder(configuration: configuration.encoderConfiguration)
        } catch {
            throw .encoder(error)
        }
        pipeline = Mutex(Pipeline(encoder: encoder,
                                  limiter: VideoFrameRateLimiter(framesPerSecond: configuration.framesPerSecond),
                                  appliedBitrate: configuration.bitrate))
        shared = Mutex(Shared(configuration: configuration))
    }

    // MARK: Control (any thread, never blocks on an encode)

    /// The settings in force, with the bitrate last set by ``setBitrate(_:)``.
    public var configuration: Configuration { shared.withLock { $0.configuration } }
    public var statistics: Statistics { shared.withLock { $0.statistics } }
    public var isClosed: Bool { shared.withLock { $0.closed } }

    /// Sets where encoded frames go, replacing any previous sink. Until one is set, encoded
    /// frames are dropped and counted in ``Statistics/framesDroppedWithoutSink``.
    public func setSink(_ sink: @escaping Sink) {
        shared.withLock { state in
            guard !state.closed else { return }
            state.sink = sink
        }
    }

    /// Stops handing frames to the sink; they are then encoded and dropped.
    public func removeSink() {
        shared.withLock { $0.sink = nil }
    }

    /// Makes the next encoded frame a keyframe: the answer to an RTCP PLI or FIR.
    public func requestKeyframe() {
        shared.withLock { state in
            state.keyframeRequested = true
            state.statistics.keyframeRequests += 1
        }
    }

    /// Changes the target bitrate from the next encoded frame on (e.g. after a REMB estimate).
    public func setBitrate(_ bitsPerSecond: Int) throws(VideoTrackError) {
        try Configuration.validate(bitrate: bitsPerSecond)
        try shared.withLock { state throws(VideoTrackError) in
            guard !state.closed else { throw .closed }
            state.configuration.bitrate = bitsPerSecond
        }
    }

    /// Closes the track: later pushes throw ``VideoTrackError/closed`` and the sink is dropped.
    /// Idempotent, and it does not wait for a push in progress; such a push may still deliver
    /// its frame, then releases the encoder.
    public func close() {
        shared.withLock { state in
            state.closed = true
            state.sink = nil
        }
        // A push holding the pipeline releases the encoder itself when it sees the track closed.
        _ = pipeline.withLockIfAvailable { $0.encoder = nil }
    }

    // MARK: Pushing (the caller's thread)

    /// Encodes `frame`, captured at `capturedAt`, and hands the result to the sink, all before
    /// returning.
    ///
    /// Capture times should advance with the pictures (the RTP time follows them); a frame whose
    /// capture time is less than a frame interval after the previous encoded one is dropped.
    /// - Throws: ``VideoTrackError/invalidFrame(_:)`` for unusable planes or a size beyond VP8's,
    ///   ``VideoTrackError/encoder(_:)`` when libvpx fails, ``VideoTrackError/closed`` after
    ///   ``close()``. After any error but the last the track stays usable; the frame is counted
    ///   in ``Statistics/framesRejected``.
    @discardableResult
    public func push(_ frame: I420Frame, capturedAt: ContinuousClock.Instant = .now) throws(VideoTrackError) -> PushResult {
        try pipeline.withLock { pipeline throws(VideoTrackError) in
            let open = shared.withLock { state in
                guard !state.closed else { return false }
                state.statistics.framesPushed += 1
                return true
            }
            guard open else {
                pipeline.encoder = nil
                throw .closed
            }
            do throws(VideoTrackError) {
                let result = try encode(frame, capturedAt: capturedAt, in: &pipeline)
                if isClosed { pipeline.encoder = nil }
                return result
            } catch {
                shared.withLock { $0.statistics.framesRejected += 1 }
                throw error
            }
        }
    }

    private func encode(_ frame: I420Frame, capturedAt: ContinuousClock.Instant,
                        in pipeline: inout Pipeline) throws(VideoTrackError) -> PushResult {
        try Self.validate(frame)
        guard pipeline.limiter.admit(capturedAt) else {
            shared.withLock { $0.statistics.framesDroppedForRate += 1 }
            return .droppedForRate
        }
        guard let encoder = pipeline.encoder else { throw .closed }
        let rtpTimestamp = try pipeline.timeline.rtpTimestamp(at: capturedAt)
        let (keyframeRequested, bitrate) = shared.withLock { state in
            defer { state.keyframeRequested = false }
            return (state.keyframeRequested, state.configuration.bitrate)
        }
        let packets: [VPXEncodedFrame]
        do {
            if bitrate != pipeline.appliedBitrate {
                try encoder.setBitrate(bitrate)
                pipeline.appliedBitrate = bitrate
            }
            // The encoder keeps the request until a frame is encoded, so a failed encode below
            // does not lose it.
            if keyframeRequested { encoder.forceKeyframe() }
            packets = try encoder.encode(frame, pts: rtpTimestamp)
        } catch {
            throw .encoder(error)
        }
        let resized = pipeline.lastSize.map { $0 != (frame.width, frame.height) } ?? false
        pipeline.lastSize = (frame.width, frame.height)
        guard !packets.isEmpty else {
            shared.withLock { $0.statistics.framesDroppedByEncoder += 1 }
            return .droppedByEncoder
        }
        // Realtime VP8 with no lookahead gives one frame per picture; any extra share its time.
        var result = PushResult.droppedWithoutSink
        for (index, packet) in packets.enumerated() {
            let encoded = EncodedFrame(bytes: packet.data, rtpTimestamp: rtpTimestamp, isKeyframe: packet.isKeyframe,
                                       width: frame.width, height: frame.height, capturedAt: capturedAt)
            let sink = record(encoded, resized: resized && index == 0)
            if let sink {
                sink(encoded)
                result = .sent(encoded)
            }
        }
        return result
    }

    /// Counts an encoded frame and returns the sink to give it to, if there is one.
    private func record(_ frame: EncodedFrame, resized: Bool) -> Sink? {
        shared.withLock { state in
            state.statistics.framesEncoded += 1
            state.statistics.bytes += frame.bytes.count
            if frame.isKeyframe { state.statistics.keyframes += 1 }
            if resized { state.statistics.resolutionChanges += 1 }
            state.statistics.width = frame.width
            state.statistics.height = frame.height
            if state.sink == nil {
                state.statistics.framesDroppedWithoutSink += 1
            } else {
                state.statistics.framesSent += 1
            }
            return state.sink
        }
    }

    /// Checks what the encoder would otherwise trip over: planes shorter than the geometry, and
    /// sizes VP8 cannot code.
    private static func validate(_ frame: I420Frame) throws(VideoTrackError) {
        guard frame.width <= maxDimension, frame.height <= maxDimension else {
            throw .invalidFrame(.invalidDimensions(width: frame.width, height: frame.height))
        }
        do {
            try frame.validatePlanes()
        } catch {
            throw .invalidFrame(error)
        }
    }
}
