import Agent
import Synchronization

/// A custom audio track: server code pushes PCM in, and the bot's pacer pulls one 20 ms Opus
/// packet out every 20 ms.
///
/// Pushes take Int16 or Float PCM at any rate libsamplerate handles (8 ... 192 kHz), mono or
/// stereo. They are resampled to 48 kHz, mixed to the track's channel count and queued, up to
/// ``Configuration/maxQueuedDuration``. A full queue pushes back: ``push(_:sampleRate:channels:)-([Float],_,_)``
/// suspends until the pacer has drained room (and a push longer than the whole queue goes in
/// piece by piece), while ``tryPush(_:sampleRate:channels:)-([Float],_,_)`` says no at once.
/// ``clear()`` drops everything queued, for barge-in.
///
/// A capture processor (``AudioProcessorFactory``: noise suppression, AGC, a gain) runs on each
/// 20 ms frame that carries pushed audio, just before it is encoded, on the thread that pulls
/// the packet. Pure silence skips it, so DTX still sees digital silence. A track made without
/// one takes its engine's ``AudioProcessingDefaults/capture`` when a ``Bot`` starts with it.
///
/// The pull side, ``nextPacket()``, never waits and never stalls: what is queued is encoded,
/// padded with silence when short of 20 ms, and silence is encoded when nothing is.
///
/// Locks: pushers serialize on `input` (resampling happens there, off the pacer's path), then
/// briefly take `queue`; the pacer takes `output`, then briefly `queue`. Always in that order, so
/// neither side ever waits on the other's conversion or encoding.
public final class AudioTrack: Sendable {
    /// One encoded 20 ms frame.
    public struct Packet: Sendable, Equatable {
        /// The Opus packet.
        public var bytes: [UInt8]
        /// True when the frame carries pushed PCM (perhaps padded), false when it is pure silence.
        public var hasAudio: Bool

        public init(bytes: [UInt8], hasAudio: Bool) {
            self.bytes = bytes
            self.hasAudio = hasAudio
        }
    }

    /// Opus over WebRTC always runs at 48 kHz (RFC 7587 §4.1).
    public static let sampleRate = 48_000
    /// One packet's duration, and its RTP timestamp step in samples.
    public static let frameDuration = Duration.milliseconds(20)
    public static let samplesPerChannelPerFrame = 960

    typealias Waiter = CheckedContinuation<Void, any Error>

    /// What pushers and the pacer share.
    struct QueueState: Sendable {
        var samples: PCMQueue<Waiter>
        var isClosed = false
        /// Counts clears and closes; the input side resets its resampler when it sees a new one.
        var generation: UInt64 = 0
        var nextPushID: UInt64 = 0
        var statistics = Statistics()
    }

    /// The pacer's reusable buffers, and the capture processor that works in them.
    struct EncodeBuffers {
        var frame: [Float]
        var packet: [UInt8]
        /// The frame as Int16, what processors take.
        var processed: [Int16]
        var processor: (any AudioProcessor)?
        /// A processor was given (perhaps a pass-through) or adopted: a default is ignored.
        var processorChosen: Bool
    }

    public let configuration: Configuration
    /// The frames a capture processor of this track takes: 48 kHz, the track's channels, 20 ms.
    public let processingFormat: AudioProcessingFormat
    private let encoder: OpusEncoder
    private let input: Mutex<PCMInputConverter>
    let queue: Mutex<QueueState>
    private let output: Mutex<EncodeBuffers>

    /// - Parameter processor: capture processing for this track, before encoding; nil takes the
    ///   engine's default when a bot starts with the track, ``AudioProcessorFactory/passThrough`` none.
    /// - Throws: ``AudioTrackError`` for a bad configuration, an encoder libopus refuses, or a
    ///   processor that cannot run on the track's frames.
    public init(configuration: Configuration = Configuration(), processor: AudioProcessorFactory? = nil) throws(AudioTrackError) {
        try configuration.validate()
        do {
            encoder = try OpusEncoder(configuration: configuration.encoderConfiguration)
        } catch {
            throw .encoder(error)
        }
        do {
            processingFormat = try AudioProcessingFormat(sampleRate: Self.sampleRate, channels: configuration.channels,
                                                         frameDuration: .milliseconds20)
        } catch {
            throw .processor(error)
        }
        let made = try Self.makeProcessor(processor, for: processingFormat)
        self.configuration = configuration
        input = Mutex(PCMInputConverter(outputChannels: configuration.channels))
        queue = Mutex(QueueState(samples: PCMQueue(capacity: configuration.queueCapacity)))
        let frameSamples = Self.samplesPerChannelPerFrame * configuration.channels
        output = Mutex(EncodeBuffers(
            frame: [Float](repeating: 0, count: frameSamples),
            packet: [UInt8](repeating: 0, count: OpusEncoder.maxPacketBytes),
            processed: [Int16](repeating: 0, count: frameSamples), processor: made, processorChosen: processor != nil))
    }

    public var channels: Int { configuration.channels }

    /// PCM queued and not yet pulled, at 48 kHz; never more than the configured maximum (what
    /// waiting pushes still hold is not counted).
    public var queuedDuration: Duration {
        let samples = queue.withLock { $0.samples.count }
        return Self.duration(ofSamples: samples, channels: channels)
    }

    /// Pushes suspended until the queue has room for them.
    public var waitingPushes: Int { queue.withLock { $0.samples.waitingCount } }

    // MARK: Pushing

    /// Queues 16-bit PCM; see ``push(_:sampleRate:channels:)-([Float],_,_)``.
    public func push(_ samples: [Int16], sampleRate: Int, channels: Int) async throws {
        try PCMInputConverter.validate(sampleCount: samples.count, sampleRate: sampleRate, channels: channels)
        try await push(PCMConversion.floats(fromInt16: samples), sampleRate: sampleRate, channels: channels)
    }

    /// Queues interleaved float PCM in -1 ... 1 at `sampleRate` with 1 or 2 `channels`, waiting for
    /// room as long as the queue is full. Returns once all of it is queued.
    ///
    /// - Throws: ``AudioTrackError`` for bad input or a closed track (also when the track closes
    ///   while this waits); `CancellationError` when the calling task is cancelled while waiting,
    ///   in which case the part already queued stays and the rest is dropped.
    /// - Note: A ``clear()`` while this waits drops the rest too, and this returns normally.
    public func push(_ samples: [Float], sampleRate: Int, channels: Int) async throws {
        try PCMInputConverter.validate(sampleCount: samples.count, sampleRate: sampleRate, channels: channels)
        let id = queue.withLock { state in
            state.nextPushID += 1
            return state.nextPushID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                if let outcome = enqueue(samples, sampleRate: sampleRate, channels: channels, id: id, waiter: waiter) {
                    waiter.resume(with: outcome)
                }
            }
        } onCancel: {
            queue.withLock { $0.samples.cancel(id: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Queues 16-bit PCM if it fits right now; see ``tryPush(_:sampleRate:channels:)-([Float],_,_)``.
    public func tryPush(_ samples: [Int16], sampleRate: Int, channels: Int) throws(AudioTrackError) -> Bool {
        try PCMInputConverter.validate(sampleCount: samples.count, sampleRate: sampleRate, channels: channels)
        return try tryPush(PCMConversion.floats(fromInt16: samples), sampleRate: sampleRate, channels: channels)
    }

    /// Queues float PCM if all of it fits right now and no push waits ahead of it; otherwise queues
    /// nothing and returns false. Never waits, so it suits code that must not suspend. Input that
    /// needs resampling also needs room for the frames the resampler may still release from earlier
    /// pushes (at most about 2 ms at 16 kHz).
    public func tryPush(_ samples: [Float], sampleRate: Int, channels: Int) throws(AudioTrackError) -> Bool {
        try PCMInputConverter.validate(sampleCount: samples.count, sampleRate: sampleRate, channels: channels)
        return try input.withLock { converter throws(AudioTrackError) -> Bool in
            let needed = converter.maximumOutputCount(sampleCount: samples.count, sampleRate: sampleRate, channels: channels)
            let (generation, fits) = try queue.withLock { state throws(AudioTrackError) in
                guard !state.isClosed else { throw .closed }
                return (state.generation, state.samples.waitingCount == 0 && state.samples.room >= needed)
            }
            guard fits else { return false }
            let converted = try converter.convert(samples, sampleRate: sampleRate, channels: channels, generation: generation)
            // Holding `input`, no other push can take the room checked above; a clear only adds room.
            return try queue.withLock { state throws(AudioTrackError) in
                guard !state.isClosed else { throw .closed }
                return state.samples.appendIfRoom(converted)
            }
        }
    }

    /// Drops everything queued, and the rest of every waiting push, which then return. For
    /// barge-in: the next packet is silence.
    public func clear() {
        let waiters = queue.withLock { state in
            state.generation += 1
            let (dropped, waiters) = state.samples.removeAll()
            state.statistics.clearedDuration += Self.duration(ofSamples: dropped, channels: channels)
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Ends the track: queued audio is dropped, waiting and later pushes throw
    /// ``AudioTrackError/closed``, and ``nextPacket()`` goes on returning silence. Idempotent.
    public func close() {
        let waiters = queue.withLock { state -> [Waiter] in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            state.generation += 1
            return state.samples.removeAll().waiters
        }
        for waiter in waiters { waiter.resume(throwing: AudioTrackError.closed) }
    }

    /// Adapts in-band FEC to the loss receivers report (RTCP RR fraction lost, as a percentage).
    public func setExpectedPacketLossPercent(_ percent: Int) throws(AudioTrackError) {
        guard (0...100).contains(percent) else { throw .unsupportedPacketLossPercent(percent) }
        do { try encoder.setExpectedPacketLossPercent(percent) } catch { throw .encoder(error) }
    }

    // MARK: Pulling

    /// The next 20 ms Opus packet: queued PCM (padded with silence when less than 20 ms is
    /// queued), or silence. Cheap and never waits on pushers, so the pacer can call it on the
    /// network loop. With DTX on, silence comes as 1-2 byte packets the pacer may skip.
    public func nextPacket() -> Packet {
        output.withLock { buffers in
            let (taken, completed) = buffers.frame.withUnsafeMutableBufferPointer { frame in
                queue.withLock { state in
                    let result = state.samples.take(into: frame)
                    state.statistics.countPacket(hasAudio: result.taken > 0)
                    return result
                }
            }
            for waiter in completed { waiter.resume() }
            if taken > 0, buffers.processor != nil, !Self.runProcessor(on: &buffers) {
                queue.withLock { $0.statistics.processorFailures += 1 }
            }
            let encoded = buffers.frame.withUnsafeBufferPointer { frame in
                buffers.packet.withUnsafeMutableBytes { packet in
                    Result { () throws(OpusError) in try encoder.encode(frame, into: packet) }
                }
            }
            guard let length = try? encoded.get() else {
                // A whole frame into a maximal buffer cannot fail; if libopus still does, a bare TOC
                // byte (a zero-length frame, RFC 6716 §3.2.1) keeps the stream going as a gap.
                queue.withLock { $0.statistics.encodeFailures += 1 }
                return Packet(bytes: [Self.emptyFrameTOC(channels: channels)], hasAudio: taken > 0)
            }
            return Packet(bytes: Array(buffers.packet[..<length]), hasAudio: taken > 0)
        }
    }

    // MARK: Processing

    /// Gives the track `factory`'s processor unless it has one of its own (or adopted one
    /// already); ``Bot`` calls it with the engine's default as it starts.
    func adoptDefaultProcessor(_ factory: AudioProcessorFactory) throws(AudioTrackError) {
        let format = processingFormat
        try output.withLock { buffers throws(AudioTrackError) in
            guard !buffers.processorChosen else { return }
            buffers.processor = try Self.makeProcessor(factory, for: format)
            buffers.processorChosen = true
        }
    }

    private static func makeProcessor(_ factory: AudioProcessorFactory?, for format: AudioProcessingFormat) throws(AudioTrackError) -> (any AudioProcessor)? {
        guard let factory else { return nil }
        do {
            return try factory.makeProcessor(for: format)
        } catch {
            throw .processor(error)
        }
    }

    /// Runs the processor on the frame through its Int16 copy; false (and the frame untouched)
    /// when it refused it.
    private static func runProcessor(on buffers: inout EncodeBuffers) -> Bool {
        for index in buffers.frame.indices { buffers.processed[index] = PCMConversion.int16(buffers.frame[index]) }
        do {
            try buffers.processor?.process(&buffers.processed)
        } catch {
            return false
        }
        for index in buffers.frame.indices { buffers.frame[index] = Float(buffers.processed[index]) / PCMConversion.int16Scale }
        return true
    }

    // MARK: Helpers

    private func enqueue(_ samples: [Float], sampleRate: Int, channels: Int, id: UInt64,
                 waiter: Waiter) -> Result<Void, any Error>? {
        input.withLock { converter -> Result<Void, any Error>? in
            do {
                let generation = try queue.withLock { state throws(AudioTrackError) in
                    guard !state.isClosed else { throw .closed }
                    return state.generation
                }
                if Task.isCancelled { return .failure(CancellationError()) }
                let converted = try converter.convert(samples, sampleRate: sampleRate, channels: channels,
                                                      generation: generation)
                return try queue.withLock { state throws(AudioTrackError) -> Result<Void, any Error>? in
                    guard !state.isClosed else { throw .closed }
                    // Checked under the lock the cancel handler takes, so a cancel either sees the
                    // waiting push or happened before this line.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    return state.samples.append(converted, id: id, waiter: waiter) == nil ? nil : .success(())
                }
            } catch {
                return .failure(error)
            }
        }
    }

    static func duration(ofSamples samples: Int, channels: Int) -> Duration {
        .nanoseconds(Int64(samples / channels) * 1_000_000_000 / Int64(sampleRate))
    }

    /// A code-0 CELT fullband 20 ms TOC byte (config 31), mono or stereo.
    static func emptyFrameTOC(channels: Int) -> UInt8 {
        31 << 3 | (channels == 2 ? 0x04 : 0)
    }
}
