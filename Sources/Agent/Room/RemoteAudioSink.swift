import Synchronization

/// Decodes one remote audio track (Opus) into fixed PCM frames for user code.
///
/// Each frame is exactly ``RemoteAudioFormat/samplesPerChannel`` long, at the format's rate and
/// channel count, and the frames follow the sender's RTP timeline: loss and DTX gaps are filled
/// (see ``RemoteAudioGapPolicy``), duplicates and packets too late to place are dropped and
/// counted, so an hour of RTP time is an hour of frames. The packets are expected in order, as
/// the channel's jitter buffer hands them on; one that comes after its span was filled is dropped.
///
/// ```swift
/// let format = try RemoteAudioFormat(sampleRate: 16_000, frameDuration: .milliseconds10)
/// let sink = try RemoteAudioSink(format: format) { frame in
///     if let samples = frame.int16Samples { recognizer.enqueue(samples) }   // on the track's lane: be quick
/// }
/// track.add(sink)
/// ```
///
/// **Render processing.** A sink's ``AudioProcessor`` (from the `processor` factory, or the
/// engine's ``AudioProcessingDefaults/render`` when it has none) runs on every frame before the
/// level meter and the consumer see it, on the same thread as decoding; fill frames included, so
/// an AGC or noise estimate follows the timeline the consumer gets.
///
/// **Threading.** Decoding happens inside ``receive(_:)``, on the caller's thread, which for a
/// channel's track is the track's ``WorkerLane`` (off the transport loop). Frames are delivered
/// on that same thread, after the sink's lock is released (so the handler may read
/// ``counters`` or mute the track), with the RTP and wall times of the packets they came from.
/// A ``RemoteTrackDelivery/handler(_:)`` must return quickly; use a
/// ``RemoteTrackDelivery/stream(_:)`` for slow consumers. ``counters`` and ``level`` can be
/// read from any thread.
public final class RemoteAudioSink: RemoteTrackSink {
    public let format: RemoteAudioFormat
    public let gapPolicy: RemoteAudioGapPolicy
    /// The level of the delivered audio, fed as frames go out.
    public let level: AudioLevelMeter
    private let delivery: RemoteTrackDelivery<RemoteAudioFrame>
    private let pipeline: Mutex<RemoteAudioPipeline?>
    private let published = Mutex(RemoteAudioSinkCounters())

    /// - Parameter processor: render processing for this sink's frames, before its level meter
    ///   and its consumer; nil takes the engine's default (``AudioProcessingDefaults/render``)
    ///   when the sink is added to a channel's track, ``AudioProcessorFactory/passThrough`` none.
    public init(format: RemoteAudioFormat, gapPolicy: RemoteAudioGapPolicy = .standard,
                levelWindow: Duration = .milliseconds(100), processor: AudioProcessorFactory? = nil,
                delivery: RemoteTrackDelivery<RemoteAudioFrame>) throws(RemoteTrackError) {
        let level = AudioLevelMeter(window: levelWindow)
        let pipeline = try RemoteAudioPipeline(format: format, policy: gapPolicy, level: level, processor: processor)
        self.format = format
        self.gapPolicy = gapPolicy
        self.level = level
        self.delivery = delivery
        self.pipeline = Mutex(pipeline)
    }

    /// A sink that calls `handler` with each frame, on the thread that feeds the sink.
    public convenience init(format: RemoteAudioFormat, gapPolicy: RemoteAudioGapPolicy = .standard,
                            processor: AudioProcessorFactory? = nil,
                            handler: @escaping @Sendable (RemoteAudioFrame) -> Void) throws(RemoteTrackError) {
        try self.init(format: format, gapPolicy: gapPolicy, processor: processor, delivery: .handler(handler))
    }

    /// A sink and the stream it fills, holding at most `bufferLimit` frames (the oldest is
    /// dropped and counted in ``RemoteAudioSinkCounters/framesDropped`` when the consumer lags).
    public static func streaming(format: RemoteAudioFormat, gapPolicy: RemoteAudioGapPolicy = .standard,
                                 processor: AudioProcessorFactory? = nil,
                                 bufferLimit: Int = 50) throws(RemoteTrackError) -> (RemoteAudioSink, AsyncStream<RemoteAudioFrame>) {
        let (delivery, frames) = try RemoteTrackDelivery<RemoteAudioFrame>.bounded(bufferLimit)
        return (try RemoteAudioSink(format: format, gapPolicy: gapPolicy, processor: processor, delivery: delivery), frames)
    }

    /// What the sink has done so far.
    public var counters: RemoteAudioSinkCounters {
        var counters = published.withLock { $0 }
        counters.framesDropped = delivery.dropped
        return counters
    }

    public func receive(_ frame: RemoteFrame) {
        deliver(pipeline.withLock { pipeline in
            guard let pipeline else { return ([], nil) }
            return (pipeline.process(frame), pipeline.counters)
        })
    }

    /// Takes the engine's render default unless the sink has a processor (``RemoteTrack/add(_:)``
    /// calls it before the sink's first frame).
    func adoptDefaultProcessor(_ factory: AudioProcessorFactory) {
        let counters = pipeline.withLock { pipeline -> RemoteAudioSinkCounters? in
            pipeline?.adoptDefaultProcessor(factory)
            return pipeline?.counters
        }
        if let counters { published.withLock { $0 = counters } }
    }

    /// Audio ignores it: a lost packet shows as a gap in the next packet's RTP time.
    public func frameLost() {}

    /// Restarts the timeline at the next packet, with fresh decoder state and no fill for the
    /// pause: no burst of catch-up audio, and the first frame after it is a discontinuity.
    public func resume() {
        pipeline.withLock { pipeline in pipeline?.restart() }
    }

    /// Delivers the last partial frame (padded with silence) and finishes a stream. Idempotent.
    public func finish() {
        let output = pipeline.withLock { pipeline in
            defer { pipeline = nil }
            guard let pipeline else { return ([RemoteAudioFrame](), RemoteAudioSinkCounters?.none) }
            return (pipeline.flush(), pipeline.counters)
        }
        deliver(output)
        delivery.finish()
    }

    /// Publishes the counters, then hands the frames on, outside the pipeline's lock.
    private func deliver(_ output: (frames: [RemoteAudioFrame], counters: RemoteAudioSinkCounters?)) {
        if let counters = output.counters { published.withLock { $0 = counters } }
        for frame in output.frames { delivery.deliver(frame) }
    }
}
