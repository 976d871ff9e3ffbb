import Agent

/// Mixes every participant's decoded audio into one track (mix.wav) on the recording's timeline.
///
/// Participants push PCM placed at a sample position (48 kHz samples from the recording's t=0,
/// the same positions their own ``TimelineWAVWriter`` gets). The mixer sums what arrives into a
/// pending window and emits it in blocks (20 ms by default) once it is safe to:
///
///     timeline  0 ........ emitted | pending window (Int32 sums) ...... | furthest pushed
///                                  ^ next block goes out when every active participant has
///                                    delivered past its end, or when the clock (or the furthest
///                                    push) is maxLatency beyond it: whoever is missing is silent.
///
/// - A participant that joins late holds nothing up before its join position; one that leaves no
///   longer holds anything up. Audio it pushed before leaving stays in the mix.
/// - Audio for a block already emitted is dropped and counted (``samplesDroppedLate``); a block a
///   participant already delivered (a duplicate) is trimmed, so nothing is added twice.
/// - Sums saturate at the Int16 limits instead of wrapping around (``samplesClipped`` counts them).
/// - Memory is bounded: a push far ahead first emits everything older than `maxLatency` before it.
///
/// The caller drives time with ``advance(toSample:)`` (e.g. every 20 ms from the recording clock)
/// so a mix keeps moving when everybody is silent, and ends it with ``finish(atSample:)``.
/// Not thread-safe: one writer thread owns it.
public final class RoomMixer {
    public let blockSamples: Int
    public let maxLatencySamples: Int64
    public let channels: Int

    /// Samples of the timeline emitted to the output.
    public private(set) var emitted: Int64 = 0
    /// Samples (per channel) that arrived for blocks already emitted and were dropped.
    public private(set) var samplesDroppedLate: Int64 = 0
    /// Samples (per channel) a participant sent for a span it had already delivered (duplicates,
    /// or a packet older than one pushed after it), trimmed before mixing.
    public private(set) var samplesOverlapped: Int64 = 0
    /// Output samples (each channel counted) that hit the Int16 limits.
    public private(set) var samplesClipped: Int64 = 0

    private struct Participant {
        /// Timeline position up to which this participant's audio is in the window (or emitted);
        /// starts at its join position, as nothing is expected before.
        var delivered: Int64
        var active: Bool
    }

    private let output: TimelineWAVWriter?
    private let blockSink: ((_ block: [Int16], _ atSample: Int64) -> Void)?
    /// The mix's files (one, or its ``RecordingSegments`` parts) with their first samples; none
    /// without an output.
    public var outputParts: [(path: String, startSample: Int64)] { output?.parts ?? [] }
    /// Samples in the mix file(s): ``emitted``, cut back to the recording's end by ``finish(atSample:)``.
    public var outputSamples: Int64 { output?.position ?? emitted }
    private var participants: [String: Participant] = [:]
    /// Interleaved sums for the samples from `emitted` on.
    private var window: [Int32] = []
    /// The end of the furthest block anybody pushed: evidence of how far media time has got
    /// (join positions are not, a late joiner announced ahead must not flush the others).
    private var furthestPushed: Int64 = 0
    private var block: [Int16]
    private var finished = false

    /// - Parameters:
    ///   - output: the mix file; its channel count is the mixer's, and pushes must match it.
    ///   - blockSamples: samples per emitted block (960 = 20 ms).
    ///   - maxLatencySamples: how long a missing participant may hold the mix back (2 s), and so
    ///     how far behind the others a participant's audio may arrive and still be mixed. Audio
    ///     is placed at the time its sender report maps it to, and a sender or path running
    ///     late delivers it hundreds of milliseconds after that: a 200 ms budget once left a
    ///     whole participant out of a lab recording's mix (RoomRecorderTests). The window this
    ///     bounds is 2 s of Int32 sums per channel.
    ///   - blockSink: also gets every emitted block with its timeline position (the room
    ///     composite's audio), so the mix is computed once for both; with no `output` (no
    ///     `mix` format) it is the only consumer, of mono blocks.
    ///   - startSample: where the mix starts on the timeline: 0, or a continued recording's
    ///     start (``RecordingContinuation``), the output's ``TimelineWAVWriter/startSample``.
    public init(output: TimelineWAVWriter?, blockSamples: Int = 960, maxLatencySamples: Int64 = 96_000,
                blockSink: ((_ block: [Int16], _ atSample: Int64) -> Void)? = nil, startSample: Int64 = 0) throws(SoundFileError) {
        guard blockSamples > 0 else { throw .invalidArgument("blockSamples must be > 0") }
        guard maxLatencySamples >= 0 else { throw .invalidArgument("maxLatencySamples must be >= 0") }
        guard output != nil || blockSink != nil else { throw .invalidArgument("a mix needs an output or a block sink") }
        guard (output?.position ?? startSample) == startSample else { throw .invalidArgument("mix output already holds audio") }
        guard TimelineWAVWriter.validPositions.contains(startSample) else { throw .invalidArgument("start \(startSample) is beyond any recording") }
        emitted = startSample
        furthestPushed = startSample
        self.output = output
        self.blockSink = blockSink
        self.blockSamples = blockSamples
        self.maxLatencySamples = maxLatencySamples
        channels = output?.channels ?? 1
        block = [Int16](repeating: 0, count: blockSamples * channels)
    }

    /// Participants currently holding the mix until they deliver.
    public var activeParticipants: [String] { participants.filter(\.value.active).map(\.key).sorted() }

    /// Adds (or re-activates) a participant whose audio starts no earlier than `sample`.
    public func join(_ id: String, atSample sample: Int64) {
        let start = max(sample, emitted)
        if var existing = participants[id] {
            existing.active = true
            existing.delivered = max(existing.delivered, start)
            participants[id] = existing
        } else {
            participants[id] = Participant(delivered: start, active: true)
        }
    }

    /// Stops waiting for `id`; audio it already pushed stays in the mix, later pushes are ignored
    /// until it joins again.
    public func leave(_ id: String) throws(SoundFileError) {
        participants[id]?.active = false
        try emitReady(clock: nil)
    }

    /// Adds `pcm` (interleaved, ``channels`` per frame) from `id` at timeline position `sample`.
    /// An unknown participant joins at `sample`. Emits whatever blocks became ready.
    public func push(_ pcm: [Int16], atSample sample: Int64, from id: String) throws(SoundFileError) {
        guard !finished else { throw .closed(path: output?.path ?? "mix") }
        guard pcm.count % channels == 0 else {
            throw .invalidArgument("\(pcm.count) samples is not a whole number of \(channels)-channel frames")
        }
        guard TimelineWAVWriter.validPositions.contains(sample) else {
            throw .invalidArgument("position \(sample) is beyond any recording")
        }
        if participants[id] == nil { join(id, atSample: sample) }
        guard var participant = participants[id], participant.active else { return }
        let frames = Int64(pcm.count / channels)
        guard frames > 0 else { return }
        let end = sample + frames

        // Keep the window bounded: everything maxLatency before this block's end is due anyway.
        try emit(upTo: end - maxLatencySamples)

        var start = sample
        if start < emitted {
            let late = min(end, emitted) - start
            samplesDroppedLate += late
            start += late
        }
        if start < participant.delivered {
            let duplicate = min(end, participant.delivered) - start
            samplesOverlapped += duplicate
            start += duplicate
        }
        if start < end {
            let windowStart = Int(start - emitted) * channels
            let windowEnd = Int(end - emitted) * channels
            if window.count < windowEnd { window.append(contentsOf: repeatElement(0, count: windowEnd - window.count)) }
            let source = Int(start - sample) * channels
            for index in 0..<(windowEnd - windowStart) {
                window[windowStart + index] &+= Int32(pcm[source + index])
            }
        }
        participant.delivered = max(participant.delivered, end)
        furthestPushed = max(furthestPushed, end)
        participants[id] = participant
        try emitReady(clock: nil)
    }

    /// Tells the mixer the recording clock reached `sample`: blocks older than the latency budget
    /// go out even if a participant has not delivered them.
    public func advance(toSample sample: Int64) throws(SoundFileError) {
        guard !finished else { return }
        guard TimelineWAVWriter.validPositions.contains(sample) else {
            throw .invalidArgument("position \(sample) is beyond any recording")
        }
        try emitReady(clock: sample)
    }

    /// Emits everything up to `end` (the recording's end), pads the file there and closes it.
    public func finish(atSample end: Int64) throws(SoundFileError) {
        guard !finished else { return }
        guard TimelineWAVWriter.validPositions.contains(end) else {
            throw .invalidArgument("position \(end) is beyond any recording")
        }
        try emit(upTo: end, partialLastBlock: true)
        finished = true
        try output?.finish(atSample: end)
    }

    /// Emits the blocks every active participant has delivered, or that the clock (or the furthest
    /// delivery) has left more than the latency budget behind.
    private func emitReady(clock: Int64?) throws(SoundFileError) {
        let active = participants.values.filter(\.active)
        let furthest = max(clock ?? emitted, furthestPushed)
        var ready = furthest - maxLatencySamples
        if !active.isEmpty, let slowest = active.map(\.delivered).min() {
            ready = max(ready, slowest)
        } else if clock == nil {
            // Nobody to wait for and no clock tick: only what is already pushed is known.
            ready = max(ready, emitted + Int64(window.count / channels))
        }
        try emit(upTo: ready)
    }

    /// Emits whole blocks ending at or before `limit` (and a final partial one when asked).
    private func emit(upTo limit: Int64, partialLastBlock: Bool = false) throws(SoundFileError) {
        while emitted + Int64(blockSamples) <= limit {
            try emitBlock(samples: blockSamples)
        }
        if partialLastBlock, limit > emitted {
            try emitBlock(samples: Int(limit - emitted))
        }
    }

    private func emitBlock(samples: Int) throws(SoundFileError) {
        let count = samples * channels
        let available = min(count, window.count)
        if block.count != count { block = [Int16](repeating: 0, count: count) }
        for index in 0..<count {
            let sum = index < available ? window[index] : 0
            if sum > Int32(Int16.max) {
                block[index] = .max
                samplesClipped += 1
            } else if sum < Int32(Int16.min) {
                block[index] = .min
                samplesClipped += 1
            } else {
                block[index] = Int16(sum)
            }
        }
        window.removeFirst(available)
        try output?.write(block, atSample: emitted)
        blockSink?(block, emitted)
        emitted += Int64(samples)
        if block.count != blockSamples * channels { block = [Int16](repeating: 0, count: blockSamples * channels) }
    }
}
