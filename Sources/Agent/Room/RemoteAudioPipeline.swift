/// The working half of a ``RemoteAudioSink``: Opus packets in, fixed PCM frames on the RTP
/// timeline out.
///
///     RemoteFrame → RemoteAudioTimeline → fill gap (PLC/FEC or silence) → OpusDecoder (48 kHz,
///                   (place or drop)        decode packet (trim overlap)    Float) → AudioResampler
///                 → RemoteAudioFramer (fixed frames, dated) → render processor (Int16, in place)
///                 → level meter → Int16 and/or Float → RemoteAudioFrame
///
/// Every tick the timeline places is turned into audio exactly once (decoded, concealed or
/// silence), which is what keeps the output on the RTP timeline. Nothing here throws: media
/// trouble is counted and papered over with concealment or silence.
///
/// Not thread-safe: the sink keeps it inside a mutex.
final class RemoteAudioPipeline {
    static let ticksPerSecond: Int64 = 48_000
    /// libopus conceals in 2.5 ms steps.
    static let concealmentStep: Int64 = 120

    let format: RemoteAudioFormat
    let policy: RemoteAudioGapPolicy
    let level: AudioLevelMeter
    private(set) var counters = RemoteAudioSinkCounters()

    private let decoder: OpusDecoder
    private let resampler: AudioResampler
    private var timeline: RemoteAudioTimeline
    private var framer: RemoteAudioFramer
    /// Decoder output, reused for every packet: the longest Opus packet, interleaved.
    private var decoded: [Float]
    /// Runs on every frame before the level meter and delivery; nil: none.
    private var processor: (any AudioProcessor)?
    /// The sink was given a processor (perhaps a pass-through) or has adopted the engine's
    /// default; a later default is ignored.
    private var processorChosen: Bool
    /// Where the frames' wall times come from: the latest packet's RTP and mapped wall time.
    private var anchor = (participantID: "", rtp: Int64(0), wall: Int64(0), bySenderReport: false)

    init(format: RemoteAudioFormat, policy: RemoteAudioGapPolicy, level: AudioLevelMeter,
         processor: AudioProcessorFactory?) throws(RemoteTrackError) {
        self.format = format
        self.policy = policy
        self.level = level
        do {
            self.processor = try processor?.makeProcessor(for: format.processingFormat)
        } catch {
            throw .processor(error)
        }
        processorChosen = processor != nil
        do {
            decoder = try OpusDecoder(channels: format.channels)
        } catch {
            throw .codecUnavailable(error.description)
        }
        do {
            resampler = try AudioResampler(inputRate: OpusDecoder.sampleRate, outputRate: format.sampleRate,
                                           channels: format.channels)
        } catch {
            throw .codecUnavailable(error.description)
        }
        timeline = RemoteAudioTimeline(fillLimit: policy.fillTicks)
        framer = RemoteAudioFramer(format: format)
        decoded = [Float](repeating: 0, count: OpusDecoder.maxFrameSamplesPerChannel * format.channels)
    }

    // MARK: Events

    /// Takes one received packet; returns the frames it completed (often one, sometimes none or
    /// several).
    func process(_ frame: RemoteFrame) -> [RemoteAudioFrame] {
        guard frame.kind == .audio, frame.codec == .opus,
              let timestamp = Self.ticks(frame.rtpTimestamp, clockRate: frame.clockRate),
              let duration = try? OpusDecoder.samplesPerChannel(in: frame.bytes)
        else {
            counters.packetsUndecodable += 1
            return []
        }
        anchor = (frame.participantID, timestamp, frame.wallTimeNanoseconds, frame.mappedBySenderReport)
        switch timeline.place(timestamp: timestamp, duration: Int64(duration)) {
        case .late:
            counters.packetsLate += 1
            return []
        case .start:
            beginSegment(at: timestamp)
            decode(frame.bytes, duration: duration, trim: 0)
        case .restart:
            counters.timelineRestarts += 1
            beginSegment(at: timestamp)
            decode(frame.bytes, duration: duration, trim: 0)
        case .next(let gap, let trim):
            if gap > 0 { fill(gap, before: frame.bytes) }
            decode(frame.bytes, duration: duration, trim: Int(trim))
        }
        return takeFrames()
    }

    /// Takes the engine's default render processing, unless a processor was chosen already. A
    /// factory that fails for this format is counted, and the sink goes on unprocessed.
    func adoptDefaultProcessor(_ factory: AudioProcessorFactory) {
        guard !processorChosen else { return }
        processorChosen = true
        do {
            processor = try factory.makeProcessor(for: format.processingFormat)
        } catch {
            counters.processorFailures += 1
        }
    }

    /// Forgets the timeline and the codecs' history: the next packet starts afresh (unmute).
    func restart() {
        timeline.reset()
        resetCodecs()
        level.reset()
    }

    /// Ends the stream: what the resampler held back, and the partial frame padded with silence.
    func flush() -> [RemoteAudioFrame] {
        guard timeline.next != nil else { return [] }
        if let tail = try? resampler.flush() { framer.append(tail) }
        framer.padPartialFrame()
        let frames = takeFrames()
        timeline.reset()
        return frames
    }

    // MARK: Placing audio

    private func beginSegment(at timestamp: Int64) {
        framer.begin(at: timestamp)
        resetCodecs()
    }

    private func resetCodecs() {
        try? decoder.reset()
        resampler.reset()
    }

    /// Decodes a packet placed on the timeline. A packet that fails to decode is concealed
    /// instead, since the timeline already counts its span.
    private func decode(_ packet: [UInt8], duration: Int, trim: Int) {
        let channels = format.channels
        let samples = decoded.withUnsafeMutableBufferPointer { output in
            packet.withUnsafeBytes { bytes in try? decoder.decode(bytes, into: output) }
        }
        guard let samples, samples == duration else {
            counters.packetsUndecodable += 1
            conceal(Int64(duration - trim), nextPacket: nil)
            return
        }
        counters.packetsDecoded += 1
        guard trim < samples else { return }
        emit(decoded[(trim * channels)..<(samples * channels)], isFill: false)
    }

    /// Fills `gap` ticks before `nextPacket`: concealment for a short gap, silence for a long one.
    private func fill(_ gap: Int64, before nextPacket: [UInt8]) {
        if gap <= policy.concealTicks {
            counters.gapsConcealed += 1
            conceal(gap, nextPacket: nextPacket)
        } else {
            counters.gapsSilenced += 1
            silence(gap)
        }
    }

    /// Loss concealment for `ticks`, ending with FEC recovered from `nextPacket` when it has some
    /// (libopus conceals the start and recovers the last frame's worth). The part below one
    /// 2.5 ms step, which libopus cannot conceal, is silence.
    private func conceal(_ ticks: Int64, nextPacket: [UInt8]?) {
        let step = Self.concealmentStep
        let concealable = min(ticks / step * step, Int64(OpusDecoder.maxFrameSamplesPerChannel))
        silence(ticks - concealable)
        guard concealable > 0 else { return }
        let count = Int(concealable) * format.channels
        let samples = decoded.withUnsafeMutableBufferPointer { output in
            let target = UnsafeMutableBufferPointer(rebasing: output[0..<count])
            guard let nextPacket else { return try? decoder.decode(nil, into: target) }
            return nextPacket.withUnsafeBytes { bytes in try? decoder.decode(bytes, into: target, fec: true) }
        }
        guard samples == Int(concealable) else {
            silence(concealable)
            return
        }
        counters.concealedSamples += concealable
        emit(decoded[0..<count], isFill: true)
    }

    private func silence(_ ticks: Int64) {
        guard ticks > 0 else { return }
        counters.silenceSamples += ticks
        var remaining = ticks
        while remaining > 0 {
            let chunk = min(remaining, Int64(OpusDecoder.maxFrameSamplesPerChannel))
            emit(ArraySlice(repeatElement(Float(0), count: Int(chunk) * format.channels)), isFill: true)
            remaining -= chunk
        }
    }

    /// Hands 48 kHz samples on through the resampler to the framer.
    private func emit(_ samples: ArraySlice<Float>, isFill: Bool) {
        framer.noteInput(ticks: Int64(samples.count / format.channels), isFill: isFill)
        do {
            framer.append(try resampler.process(Array(samples)))
        } catch {
            // Only a partial frame or a libsamplerate failure gets here, neither possible with
            // whole decoder frames; keep the timeline whole with silence of the same length.
            let frames = (samples.count / format.channels * format.sampleRate) / OpusDecoder.sampleRate
            framer.append([Float](repeating: 0, count: frames * format.channels))
        }
    }

    // MARK: Frames out

    private func takeFrames() -> [RemoteAudioFrame] {
        var frames: [RemoteAudioFrame] = []
        while let piece = framer.nextFrame() {
            let processed = process(piece.samples)
            let samples = processed?.float ?? piece.samples
            level.add(samples, channels: format.channels, sampleRate: format.sampleRate)
            counters.framesDelivered += 1
            if piece.containsFill { counters.framesWithFill += 1 }
            frames.append(RemoteAudioFrame(
                participantID: anchor.participantID, format: format,
                int16Samples: format.sampleFormats.contains(.int16) ? processed?.int16 ?? PCMConversion.int16s(fromFloats: samples) : nil,
                floatSamples: format.sampleFormats.contains(.float) ? samples : nil,
                rtpTimestamp: piece.rtpTimestamp, wallTimeNanoseconds: wallTime(ofTick: piece.rtpTimestamp),
                mappedBySenderReport: anchor.bySenderReport, containsFill: piece.containsFill,
                isDiscontinuity: piece.isDiscontinuity))
        }
        return frames
    }

    /// One frame through the render processor, in both sample formats; nil with no processor,
    /// or when it refused the frame (counted; the frame goes on as it was).
    private func process(_ samples: [Float]) -> (int16: [Int16], float: [Float])? {
        guard processor != nil else { return nil }
        var int16 = PCMConversion.int16s(fromFloats: samples)
        do {
            try processor?.process(&int16)
        } catch {
            counters.processorFailures += 1
            return nil
        }
        return (int16, PCMConversion.floats(fromInt16: int16))
    }

    /// The wall time of an RTP tick near the latest packet (within the fill limit of it).
    private func wallTime(ofTick tick: Int64) -> Int64 {
        let offset = max(-Self.ticksPerSecond * 3600, min(Self.ticksPerSecond * 3600, tick - anchor.rtp))
        return anchor.wall &+ offset * 1_000_000_000 / Self.ticksPerSecond
    }

    /// An RTP time in 48 kHz ticks; nil for a clock rate or time no sane stream has (Opus always
    /// runs a 48 kHz RTP clock, RFC 7587 §4.1, so this normally passes the time through).
    static func ticks(_ rtpTimestamp: Int64, clockRate: Int) -> Int64? {
        let limit: Int64 = 1 << 52
        guard (-limit...limit).contains(rtpTimestamp) else { return nil }
        if clockRate == Int(ticksPerSecond) { return rtpTimestamp }
        guard (8_000...192_000).contains(clockRate) else { return nil }
        let rate = Int64(clockRate)
        return rtpTimestamp / rate * ticksPerSecond + rtpTimestamp % rate * ticksPerSecond / rate
    }
}
