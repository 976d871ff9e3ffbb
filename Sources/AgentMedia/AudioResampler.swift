import CSampleRate

/// Converts interleaved PCM from one sample rate to another, a block at a time, with
/// libsamplerate's band-limited sinc interpolation. Bots use it to bring whatever they are given
/// (a 16 kHz TTS voice, a 44.1 kHz file) to the 48 kHz Opus runs at.
///
/// The conversion is streaming: feed blocks of any size to ``process(_:)-([Float])`` and the output
/// is the same as if the whole signal had come in one call. The filter needs a few samples of
/// look-ahead, so each call holds back the last few milliseconds until the next one; ``flush()``
/// delivers them at the end of the stream. Over a whole stream, `n` input frames become about
/// `n * outputRate / inputRate` output frames, rounded to the nearest.
///
/// Equal rates pass samples through untouched, without libsamplerate.
///
/// Not thread-safe: one owner feeds it (a track's input side, a file source).
public final class AudioResampler {
    /// The rates accepted on either side: telephone band up to studio rates.
    public static let supportedRates = 8_000...192_000

    /// libsamplerate's converter, trading CPU for pass-band width. Both keep aliasing and noise
    /// about 97 dB down, far below 16-bit PCM and Opus's own coding noise.
    public enum Quality: Sendable, Equatable {
        /// `SRC_SINC_FASTEST`: flat to 80 % of the lower Nyquist frequency (6.4 kHz of a 16 kHz
        /// voice, 17.6 kHz of 44.1 kHz music). The default, for live tracks: about 250 times real
        /// time for 16 kHz mono to 48 kHz on one EPYC core (0.4 % of a core per track), and speech
        /// carries little above 6 kHz that a 48 kbit/s Opus stream would keep anyway.
        case fastest
        /// `SRC_SINC_MEDIUM_QUALITY`: flat to 90 %, at twice the cost (about 130 times real time
        /// on the same core). For music files, one per player.
        case medium

        var converterType: Int32 {
            switch self {
            case .fastest: Int32(SRC_SINC_FASTEST)
            case .medium: Int32(SRC_SINC_MEDIUM_QUALITY)
            }
        }
    }

    public let inputRate: Int
    public let outputRate: Int
    /// 1 (mono) or 2 (interleaved stereo).
    public let channels: Int
    public let quality: Quality
    /// `outputRate / inputRate`.
    public let ratio: Double
    /// The libsamplerate converter; nil when the rates are equal and samples pass through.
    private let state: OpaquePointer?
    /// Frames in and out since the stream began, to end it at exactly `input * ratio` frames.
    private var inputFrames: Int64 = 0
    private var outputFrames: Int64 = 0

    /// True when the rates are equal and samples are returned as given.
    public var isPassThrough: Bool { state == nil }

    public init(inputRate: Int, outputRate: Int, channels: Int,
                quality: Quality = .fastest) throws(AudioResamplerError) {
        guard Self.supportedRates.contains(inputRate) else { throw .unsupportedRate(inputRate) }
        guard Self.supportedRates.contains(outputRate) else { throw .unsupportedRate(outputRate) }
        guard channels == 1 || channels == 2 else { throw .unsupportedChannels(channels) }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        self.quality = quality
        self.ratio = Double(outputRate) / Double(inputRate)
        if inputRate == outputRate {
            state = nil
            return
        }
        var status: Int32 = 0
        guard let created = src_new(quality.converterType, Int32(channels), &status) else {
            throw .library(operation: "src_new", code: status, message: AudioResamplerError.message(for: status))
        }
        state = created
    }

    deinit {
        if let state { _ = src_delete(state) }
    }

    // MARK: Streaming

    /// Converts the next block of interleaved samples in -1 ... 1. The result may be a few frames
    /// shorter than `count * ratio`; they come with the next block or ``flush()``.
    public func process(_ samples: [Float]) throws(AudioResamplerError) -> [Float] {
        try requireWholeFrames(samples.count)
        guard let state else { return samples }
        let result = samples.withUnsafeBufferPointer { input in
            Result { () throws(AudioResamplerError) in try convert(input, endOfInput: false, state: state) }
        }
        let output = try result.get()
        inputFrames += Int64(samples.count / channels)
        outputFrames += Int64(output.count / channels)
        return output
    }

    /// Int16 variant of ``process(_:)-([Float])``; converts through Float and rounds back.
    public func process(_ samples: [Int16]) throws(AudioResamplerError) -> [Int16] {
        try requireWholeFrames(samples.count)
        if isPassThrough { return samples }
        return PCMConversion.int16s(fromFloats: try process(PCMConversion.floats(fromInt16: samples)))
    }

    /// Ends the stream: returns the frames held back for look-ahead, then starts afresh, so the
    /// next ``process(_:)-([Float])`` begins a new, unrelated stream.
    public func flush() throws(AudioResamplerError) -> [Float] {
        guard let state else { return [] }
        let empty: [Float] = []
        let result = empty.withUnsafeBufferPointer { input in
            Result { () throws(AudioResamplerError) in try convert(input, endOfInput: true, state: state) }
        }
        // libsamplerate may run a frame past the end (interpolated against silence); cut the
        // stream to the length the ratio gives, rounded to the nearest frame.
        let streamFrames = (inputFrames * Int64(outputRate) + Int64(inputRate / 2)) / Int64(inputRate)
        let owed = Int(max(0, streamFrames - outputFrames))
        reset()
        var tail = try result.get()
        if tail.count > owed * channels { tail.removeLast(tail.count - owed * channels) }
        return tail
    }

    /// Int16 variant of ``flush()``.
    public func flushInt16() throws(AudioResamplerError) -> [Int16] {
        PCMConversion.int16s(fromFloats: try flush())
    }

    /// Drops the held-back frames and the filter's history, as after a seek or a barge-in.
    public func reset() {
        if let state { _ = src_reset(state) }
        inputFrames = 0
        outputFrames = 0
    }

    /// An upper bound on the frames the next ``process(_:)-([Float])`` of `inputFrames` frames can
    /// return: the block's share plus what the filter may still hold from earlier blocks.
    public func maximumOutputFrames(forInputFrames inputFrames: Int) -> Int {
        Self.maximumOutputFrames(forInputFrames: inputFrames, inputRate: inputRate, outputRate: outputRate,
                                 quality: quality)
    }

    /// ``maximumOutputFrames(forInputFrames:)`` for a resampler between these rates, before one exists.
    public static func maximumOutputFrames(forInputFrames inputFrames: Int, inputRate: Int, outputRate: Int,
                                           quality: Quality = .fastest) -> Int {
        if inputRate == outputRate { return inputFrames }
        let ratio = Double(outputRate) / Double(inputRate)
        let heldBack = maximumHeldBackFrames(ratio: ratio, quality: quality)
        return Int((Double(inputFrames + heldBack) * ratio).rounded(.up)) + 1
    }

    /// Input frames this resampler may hold back for look-ahead at most.
    public var maximumHeldBackFrames: Int { Self.maximumHeldBackFrames(ratio: ratio, quality: quality) }

    // MARK: Helpers

    /// The sinc filter's half-length in input frames with some margin: measured at about 20 frames
    /// (fastest) and 47 (medium) when upsampling. Decimating stretches the filter by the ratio.
    static func maximumHeldBackFrames(ratio: Double, quality: Quality) -> Int {
        let halfLength: Double = quality == .fastest ? 24 : 52
        return Int((halfLength / min(ratio, 1)).rounded(.up)) + 8
    }

    private func requireWholeFrames(_ sampleCount: Int) throws(AudioResamplerError) {
        guard sampleCount % channels == 0 else { throw .partialFrame(sampleCount: sampleCount, channels: channels) }
    }

    /// Runs `src_process` until it has taken all of `input` and given all it can.
    private func convert(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool,
                         state: OpaquePointer) throws(AudioResamplerError) -> [Float] {
        let inputFrames = input.count / channels
        var output = [Float](repeating: 0, count: maximumOutputFrames(forInputFrames: inputFrames) * channels)
        var consumed = 0
        var produced = 0
        // libsamplerate refuses a null input pointer, even for zero frames.
        var placeholder: Float = 0
        while true {
            if produced * channels == output.count {
                output.append(contentsOf: repeatElement(0, count: max(1024, output.count / 2) * channels))
            }
            var data = SRC_DATA()
            data.input_frames = inputFrames - consumed
            data.output_frames = output.count / channels - produced
            data.end_of_input = endOfInput ? 1 : 0
            data.src_ratio = ratio
            let status = withUnsafeMutablePointer(to: &placeholder) { placeholderPointer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    data.data_in = input.baseAddress.map { $0 + consumed * channels } ?? UnsafePointer(placeholderPointer)
                    // output is never empty here (grown above), so its base address exists.
                    data.data_out = outputBuffer.baseAddress! + produced * channels
                    return src_process(state, &data)
                }
            }
            try AudioResamplerError.check(status, "src_process")
            consumed += data.input_frames_used
            produced += data.output_frames_gen
            let outputWasFull = data.output_frames_gen == data.output_frames
            if data.input_frames_used == 0 && data.output_frames_gen == 0 { break }
            if consumed >= inputFrames && !outputWasFull && !endOfInput { break }
        }
        output.removeLast(output.count - produced * channels)
        return output
    }
}
