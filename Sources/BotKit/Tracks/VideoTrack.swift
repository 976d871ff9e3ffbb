import Agent
import Synchronization

/// A bot's own video: server code pushes raw I420 pictures in, and encoded frames (VP8, VP9 or
/// H.264, ``Configuration/codec``) come out to a sink that the sender (the Bot) sets.
///
/// ```
///   push(I420, capturedAt) ──▶ validate ──▶ rate limit ──▶ RTP time ──▶ encode ──▶ sink(EncodedFrame)
///        (caller's thread)       │ throws      │ drops        90 kHz      realtime     (same thread)
///                                                                  libvpx / libopenh264
/// ```
///
/// - Encoding runs synchronously on the thread that calls ``push(_:capturedAt:)``; pushes from
///   several threads are serialized. The sink is called on that same thread, after encoding, so
///   it must be cheap: hand the frame to the network loop and return.
/// - A picture of a new size re-creates the encoder and comes out as a keyframe (for H.264 an
///   IDR with a new SPS and PPS). VP8 and VP9 take any size, odd ones too; H.264 takes even
///   sizes from 16x16 up to its level 5.2 bounds, and refuses others with
///   ``VideoTrackError/unsupportedSize(codec:width:height:reason:)``.
/// - Pictures pushed faster than ``Configuration/framesPerSecond`` are dropped before encoding.
/// - ``requestKeyframe()``, ``setBitrate(_:)``, ``setSink(_:)``, ``statistics`` and ``close()``
///   never wait for an encode in progress, so the network loop can call them (on PLI, FIR or a
///   bandwidth estimate) without stalling. Requests take effect at the next encoded frame.
/// - With the room's choice (``Configuration/codec`` nil) a ``Bot`` tells the track the codec
///   the room took when it publishes; the next frame then comes from a new encoder of that
///   codec, as a keyframe.
public final class VideoTrack: Sendable {
    /// RTP clock rate for video (RFC 7741 §4.1, RFC 6184 §8.2.1: 90 kHz).
    public static let clockRate = 90_000
    /// What a track with the room's choice offers, in our order of preference: the codecs it
    /// encodes that a Bot can also packetize (not VP9 yet: there is no VP9 packetizer).
    public static let roomChoices = VideoEncoder.codecs.filter(\.canPacketize)

    /// Receives each encoded frame, on the pushing thread. It may call ``requestKeyframe()``,
    /// ``setBitrate(_:)``, ``statistics`` or ``close()``, but not ``push(_:capturedAt:)``.
    public typealias Sink = @Sendable (EncodedFrame) -> Void

    /// State used by pushes only. Its lock is held for a whole push, encode included, which is
    /// what serializes pushes.
    private struct Pipeline {
        /// nil once the track is closed.
        var encoder: VideoEncoder?
        var limiter: VideoFrameRateLimiter
        var timeline = VideoCaptureTimeline(clockRate: VideoTrack.clockRate)
        var appliedBitrate: Int
        var lastSize: (width: Int, height: Int)?
        var lastCodec: MediaCodec?
    }

    /// State shared with other threads. Its lock is only ever held briefly, never while encoding
    /// or calling the sink.
    private struct Shared {
        var configuration: Configuration
        /// What the next frame is encoded as: the configured codec, or the one the room took.
        var codec: MediaCodec
        var sink: Sink?
        var keyframeRequested = false
        var closed = false
        var statistics = Statistics()
    }

    private let pipeline: Mutex<Pipeline>
    private let shared: Mutex<Shared>

    /// Creates a track; the encoder itself starts with the first picture.
    /// - Throws: ``VideoTrackError/invalidConfiguration(_:)`` for a setting out of range or a
    ///   codec other than VP8, VP9 and H.264.
    public init(configuration: Configuration = Configuration()) throws(VideoTrackError) {
        try configuration.validate()
        let encoder: VideoEncoder
        do {
            encoder = try configuration.makeEncoder(configuration.initialCodec)
        } catch {
            throw .encoder(error)
        }
        pipeline = Mutex(Pipeline(encoder: encoder,
                                  limiter: VideoFrameRateLimiter(framesPerSecond: configuration.framesPerSecond),
                                  appliedBitrate: configuration.bitrate))
        shared = Mutex(Shared(configuration: configuration, codec: configuration.initialCodec))
    }

    // MARK: Control (any thread, never blocks on an encode)

    /// The settings in force, with the bitrate last set by ``setBitrate(_:)``.
    public var configuration: Configuration { shared.withLock { $0.configuration } }
    public var statistics: Statistics { shared.withLock { $0.statistics } }
    public var isClosed: Bool { shared.withLock { $0.closed } }
    /// What the next frame is encoded as: ``Configuration/codec``, or with the room's choice
    /// the codec the room took (the first of ``roomChoices`` before it has).
    public var codec: MediaCodec { shared.withLock { $0.codec } }

    /// The codecs a publisher may offer for this track, in our order: the configured one, or
    /// every one of ``roomChoices`` for the room's choice.
    public var offeredCodecs: [MediaCodec] {
        shared.withLock { $0.configuration.offeredCodecs }
    }

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

    /// Encodes `codec` from the next frame on: the one a room took of ``offeredCodecs``. A
    /// change re-creates the encoder, so that frame is a keyframe.
    /// - Throws: ``VideoTrackError/invalidConfiguration(_:)`` for a codec the track did not offer.
    func useNegotiated(_ codec: MediaCodec) throws(VideoTrackError) {
        try shared.withLock { state throws(VideoTrackError) in
            let offered = state.configuration.offeredCodecs
            guard offered.contains(codec) else {
                throw .invalidConfiguration("the room took \(codec.name), which the track did not offer (\(offered.map(\.name)))")
            }
            state.codec = codec
        }
    }

    /// Makes the next encoded frame a keyframe (for H.264 an IDR): the answer to an RTCP PLI
    /// or FIR.
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
    /// - Throws: ``VideoTrackError/invalidFrame(_:)`` for unusable planes,
    ///   ``VideoTrackError/unsupportedSize(codec:width:height:reason:)`` for a size the codec
    ///   cannot code, ``VideoTrackError/encoder(_:)`` when the library fails,
    ///   ``VideoTrackError/closed`` after ``close()``. After any error but the last the track
    ///   stays usable; the frame is counted in ``Statistics/framesRejected``.
    @discardableResult
    public func push(_ frame: I420Frame, capturedAt: ContinuousClock.Instant = .now) throws(VideoTrackError) -> PushResult {
        try pipeline.withLock { pipeline throws(VideoTrackError) in
            let codec = shared.withLock { state -> MediaCodec? in
                guard !state.closed else { return nil }
                state.statistics.framesPushed += 1
                return state.codec
            }
            guard let codec else {
                pipeline.encoder = nil
                throw .closed
            }
            do throws(VideoTrackError) {
                let result = try encode(frame, as: codec, capturedAt: capturedAt, in: &pipeline)
                if isClosed { pipeline.encoder = nil }
                return result
            } catch {
                shared.withLock { $0.statistics.framesRejected += 1 }
                throw error
            }
        }
    }

    private func encode(_ frame: I420Frame, as codec: MediaCodec, capturedAt: ContinuousClock.Instant,
                        in pipeline: inout Pipeline) throws(VideoTrackError) -> PushResult {
        try Self.validate(frame, codec: codec)
        guard pipeline.limiter.admit(capturedAt) else {
            shared.withLock { $0.statistics.framesDroppedForRate += 1 }
            return .droppedForRate
        }
        guard let current = pipeline.encoder else { throw .closed }
        let rtpTimestamp = try pipeline.timeline.rtpTimestamp(at: capturedAt)
        let (configuration, keyframeRequested) = shared.withLock { state in
            defer { state.keyframeRequested = false }
            return (state.configuration, state.keyframeRequested)
        }
        let packets: [VideoEncoder.Frame]
        do throws(VideoCodecError) {
            var encoder = current
            // `codec` was read at the push's start (and the frame checked for it); a change
            // since waits for the next push.
            if encoder.codec != codec {
                // A fresh encoder at the current bitrate; its first frame is a keyframe.
                encoder = try configuration.makeEncoder(codec)
                pipeline.encoder = encoder
                pipeline.appliedBitrate = configuration.bitrate
            }
            if configuration.bitrate != pipeline.appliedBitrate {
                try encoder.setBitrate(configuration.bitrate)
                pipeline.appliedBitrate = configuration.bitrate
            }
            // The encoder keeps the request until a frame is encoded, so a failed encode below
            // does not lose it.
            if keyframeRequested { encoder.forceKeyframe() }
            packets = try encoder.encode(frame, timestamp: rtpTimestamp, clockRate: Self.clockRate)
        } catch {
            throw .encoder(error)
        }
        guard !packets.isEmpty else {
            shared.withLock { $0.statistics.framesDroppedByEncoder += 1 }
            return .droppedByEncoder
        }
        // Against the last frame that came out, so a skipped one does not hide a change.
        let resized = pipeline.lastSize.map { $0 != (frame.width, frame.height) } ?? false
        let codecChanged = pipeline.lastCodec.map { $0 != codec } ?? false
        pipeline.lastSize = (frame.width, frame.height)
        pipeline.lastCodec = codec
        // Realtime encoders with no lookahead give one frame per picture; any extra share its time.
        var result = PushResult.droppedWithoutSink
        for (index, packet) in packets.enumerated() {
            let encoded = EncodedFrame(codec: codec, bytes: packet.bytes, rtpTimestamp: rtpTimestamp,
                                       isKeyframe: packet.isKeyframe, width: frame.width, height: frame.height, capturedAt: capturedAt)
            let sink = record(encoded, resized: resized && index == 0, codecChanged: codecChanged && index == 0)
            if let sink {
                sink(encoded)
                result = .sent(encoded)
            }
        }
        return result
    }

    /// Counts an encoded frame and returns the sink to give it to, if there is one.
    private func record(_ frame: EncodedFrame, resized: Bool, codecChanged: Bool) -> Sink? {
        shared.withLock { state in
            state.statistics.framesEncoded += 1
            state.statistics.bytes += frame.bytes.count
            if frame.isKeyframe { state.statistics.keyframes += 1 }
            if resized { state.statistics.resolutionChanges += 1 }
            if codecChanged { state.statistics.codecChanges += 1 }
            state.statistics.codec = frame.codec
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
    /// sizes the codec cannot code.
    private static func validate(_ frame: I420Frame, codec: MediaCodec) throws(VideoTrackError) {
        do {
            try frame.validatePlanes()
        } catch {
            throw .invalidFrame(error)
        }
        if let reason = VideoEncoder.sizeRefusal(codec: codec, width: frame.width, height: frame.height) {
            throw .unsupportedSize(codec: codec, width: frame.width, height: frame.height, reason: reason)
        }
    }
}
