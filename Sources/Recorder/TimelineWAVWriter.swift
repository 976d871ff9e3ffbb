import Agent
import Foundation

/// Writes one participant's decoded audio to a WAV file laid on the recording's timeline: sample 0
/// of the file is the recording's t=0, whenever the participant joined (ARCHITECTURE.md, Timing).
///
/// Audio arrives as blocks of PCM placed at a media time, counted in 48 kHz samples from t=0 (one
/// "sample" here is one per-channel sample, i.e. a frame). The writer keeps the file contiguous:
///
///     file:   |silence (late join)|audio|gap: silence or PLC|audio|overlap trimmed|audio|pad at finish|
///             0                   ^ first block's position                                            ^ end
///
/// - A block ahead of what is written leaves a gap, filled with silence, or with packet loss
///   concealment samples from the caller when the gap is at most ``maxConcealedGap``.
/// - A block behind (a late or duplicated packet) loses the part already covered; a block wholly
///   behind is dropped. The file never goes back.
/// - ``finish(atSample:)`` pads with silence to the recording's end, so every WAV of a recording
///   has the same length and they line up sample for sample.
///
/// **Mono by default.** Browsers signal Opus as stereo but send mono content; decoding with
/// `OpusDecoder(channels: 1)` downmixes, halves the file size and loses nothing. Pass
/// `channels: 2` for a participant that really sends stereo.
///
/// The file is 48 kHz signed 16-bit through ``SoundFileWriter``, whose header stays valid while
/// the file grows, so a killed recorder leaves a playable WAV. A forward jump is filled however
/// long it is (a participant may stay silent for minutes): callers must map RTP time sanely.
///
/// **Segments** (`--segment`): with ``segmentSamples`` the timeline is cut into parts of that
/// many samples, `<name>.wav`, `<name>.part2.wav`, … (``RecordingSegments``); each part is a
/// complete WAV whose sample 0 is its start on the timeline (a multiple of the segment length).
/// Positions stay the recording's: callers never see the cut. A part begins when a sample is
/// written at its start, so a recording ending on a boundary has no empty part after it.
///
/// **A later start** (a recording continued in its directory, ``RecordingContinuation``): with
/// ``startSample`` the first file's sample 0 is that position on the timeline instead of t=0,
/// and with `firstPart` the files are that part and on (`<name>.part3.wav`, ...). Segment cuts
/// stay on the timeline's grid (multiples of the segment length from t=0), so the first part
/// runs to the next one.
///
/// Not thread-safe: one writer thread owns it.
public final class TimelineWAVWriter {
    public static let sampleRate = 48_000
    /// Positions are refused beyond ±2^40 samples (about 265 days), so arithmetic on a garbage
    /// timestamp cannot overflow.
    public static let validPositions: ClosedRange<Int64> = -(1 << 40)...(1 << 40)

    /// The first file's path.
    public let path: String
    public let channels: Int
    /// Where the first file's sample 0 lies on the timeline: 0, or a continued run's start.
    public let startSample: Int64
    /// The longest gap (in samples) filled with the caller's concealment; longer gaps are silence,
    /// as PLC past ~120 ms only fades out anyway.
    public var maxConcealedGap: Int64 = 5760

    /// Samples of the timeline written so far: the position the next block continues from.
    public private(set) var position: Int64 = 0
    /// Samples of real (caller-provided, placed) audio written.
    public private(set) var samplesWritten: Int64 = 0
    /// Samples of silence written to fill gaps (late join, DTX, loss) and the final padding.
    public private(set) var silenceInserted: Int64 = 0
    /// Samples of concealment written into short gaps.
    public private(set) var concealedInserted: Int64 = 0
    /// How many blocks overlapped what was already written and were trimmed or dropped.
    public private(set) var overlapsTrimmed = 0
    /// Samples discarded by those trims.
    public private(set) var samplesTrimmed: Int64 = 0
    /// Gaps filled, as timeline ranges, so the manifest can list them.
    public private(set) var gaps: [Range<Int64>] = []

    /// Samples per part with `--segment`; nil: one file.
    public let segmentSamples: Int64?
    /// The files, first to last: their paths and first timeline samples. One unless segmented.
    public private(set) var parts: [(path: String, startSample: Int64)]

    private var writer: SoundFileWriter
    private var finished = false
    /// The name parts are made from (`<name>.wav`), and the first file's part number.
    private let basePath: String
    private let firstPart: Int

    /// Creates (or truncates) the WAV file at `path` (part `firstPart` of that name: `path`
    /// itself for part 1).
    ///
    /// - Parameters:
    ///   - segmentSamples: cut into parts of this many samples (above 0); nil: one file.
    ///   - startSample: the timeline position of the file's first sample (0: t=0).
    ///   - firstPart: the part number of the first file, 1 or more.
    public convenience init(path: String, channels: Int = 1, segmentSamples: Int64? = nil, startSample: Int64 = 0,
                            firstPart: Int = 1) throws(SoundFileError) {
        guard channels == 1 || channels == 2 else { throw .invalidArgument("channels must be 1 or 2, got \(channels)") }
        if let segmentSamples, segmentSamples <= 0 { throw .invalidArgument("segments must be above 0 samples, got \(segmentSamples)") }
        guard firstPart >= 1 else { throw .invalidArgument("part numbers start at 1, got \(firstPart)") }
        let first = RecordingSegments.partPath(path, number: firstPart)
        try self.init(writer: SoundFileWriter(path: first, sampleRate: Self.sampleRate, channels: channels, format: .wav),
                      segmentSamples: segmentSamples, startSample: startSample, basePath: path, firstPart: firstPart)
    }

    /// Wraps an empty 48 kHz writer; parts after it (with `segmentSamples`) are made beside it,
    /// named from `basePath` (default: the writer's path) and numbered on from `firstPart`.
    public init(writer: SoundFileWriter, segmentSamples: Int64? = nil, startSample: Int64 = 0, basePath: String? = nil,
                firstPart: Int = 1) throws(SoundFileError) {
        guard writer.sampleRate == Self.sampleRate else {
            throw .invalidArgument("timeline WAVs are \(Self.sampleRate) Hz, writer is \(writer.sampleRate) Hz")
        }
        guard writer.framesWritten == 0 else { throw .invalidArgument("writer already holds audio") }
        guard startSample >= 0, startSample <= Self.validPositions.upperBound else {
            throw .invalidArgument("start \(startSample) is beyond any recording")
        }
        self.writer = writer
        path = writer.path
        channels = writer.channels
        self.segmentSamples = segmentSamples.flatMap { $0 > 0 ? $0 : nil }
        self.startSample = startSample
        self.basePath = basePath ?? writer.path
        self.firstPart = max(1, firstPart)
        position = startSample
        parts = [(writer.path, startSample)]
    }

    deinit {
        try? writer.close()
    }

    /// What happened to one block.
    public struct Placement: Equatable, Sendable {
        /// Samples of silence written before the block.
        public var silence: Int64 = 0
        /// Samples of concealment written before the block.
        public var concealed: Int64 = 0
        /// Samples of the block dropped because they overlapped what was written.
        public var trimmed: Int64 = 0
        /// Samples of the block written.
        public var written: Int64 = 0
    }

    /// Writes interleaved `pcm` so that its first sample lands at `sample` on the timeline.
    ///
    /// - Parameter conceal: asked for `n` samples (per channel, interleaved output) when the gap
    ///   before the block is at most ``maxConcealedGap``; e.g. `{ try? decoder.conceal(samplesPerChannel: $0) }`
    ///   rounded as the decoder needs. Fewer samples than asked are completed with silence, more
    ///   are cut.
    @discardableResult
    public func write(_ pcm: [Int16], atSample sample: Int64,
                      conceal: ((Int) -> [Int16]?)? = nil) throws(SoundFileError) -> Placement {
        guard !finished else { throw .closed(path: path) }
        guard pcm.count % channels == 0 else {
            throw .invalidArgument("\(pcm.count) samples is not a whole number of \(channels)-channel frames")
        }
        guard Self.validPositions.contains(sample) else { throw .invalidArgument("position \(sample) is beyond any recording") }
        var placement = Placement()
        let frames = Int64(pcm.count / channels)
        guard frames > 0 else { return placement }

        var skip: Int64 = 0
        if sample < position {
            skip = min(frames, position - sample)
            placement.trimmed = skip
            overlapsTrimmed += 1
            samplesTrimmed += skip
            if skip == frames { return placement }
        } else if sample > position {
            let gap = sample - position
            let start = position
            if let conceal, gap <= maxConcealedGap {
                placement.concealed = try writeConcealment(frames: gap, conceal)
                placement.silence = gap - placement.concealed
            } else {
                placement.silence = gap
            }
            try writeSilence(frames: placement.silence)
            gaps.append(start..<sample)
        }

        let offset = Int(skip) * channels
        try write(pcm[offset...])
        placement.written = frames - skip
        samplesWritten += placement.written
        return placement
    }

    /// Pads with silence up to `end` (the recording's end, in samples) and closes the file. A
    /// writer already past `end` keeps its length; the caller should pass the largest end among
    /// the recording's writers. Idempotent once it succeeded.
    public func finish(atSample end: Int64) throws(SoundFileError) {
        guard !finished else { return }
        guard end <= Self.validPositions.upperBound else { throw .invalidArgument("position \(end) is beyond any recording") }
        if end > position {
            let start = position
            try writeSilence(frames: end - position)
            gaps.append(start..<end)
        } else if end < position {
            // Media ran past the recording's end (frames in flight when it stopped): cut it, so
            // every WAV of the recording has the same length.
            try cut(atSample: max(0, end))
        }
        finished = true
        try writer.close()
    }

    /// Closes without padding (e.g. on an output error). Idempotent; reports the first error.
    public func close() throws(SoundFileError) {
        finished = true
        try writer.close()
    }

    /// Forces written audio to disk.
    public func sync() {
        writer.sync()
    }

    private func writeSilence(frames: Int64) throws(SoundFileError) {
        var left = frames
        while left > 0 {
            let chunk = try room(for: left)
            try writer.writeSilence(frames: Int(chunk))
            position += chunk
            left -= chunk
        }
        silenceInserted += max(0, frames)
    }

    /// Writes up to `frames` samples of the caller's concealment and returns how many it wrote.
    private func writeConcealment(frames: Int64, _ conceal: (Int) -> [Int16]?) throws(SoundFileError) -> Int64 {
        guard let samples = conceal(Int(frames)) else { return 0 }
        let usable = min(Int64(samples.count / channels), frames)
        guard usable > 0 else { return 0 }
        try write(samples[0..<(Int(usable) * channels)])
        concealedInserted += usable
        return usable
    }

    private func write(_ samples: ArraySlice<Int16>) throws(SoundFileError) {
        var rest = samples
        while !rest.isEmpty {
            let chunk = Int(try room(for: Int64(rest.count / channels))) * channels
            let result = rest.prefix(chunk).withUnsafeBufferPointer { buffer in
                Result { () throws(SoundFileError) in try writer.write(buffer) }
            }
            try result.get()
            position += Int64(chunk / channels)
            rest = rest.dropFirst(chunk)
        }
    }

    /// How many of `frames` fit before the next cut, starting the next part first when the
    /// position is on one.
    private func room(for frames: Int64) throws(SoundFileError) -> Int64 {
        guard let segmentSamples, frames > 0 else { return frames }
        // The open part ends at the grid's next cut (a continued run's first part starts off it).
        let partEnd = (parts[parts.count - 1].startSample / segmentSamples + 1) * segmentSamples
        if position >= partEnd {
            try writer.close()
            let nextPath = RecordingSegments.partPath(basePath, number: firstPart + parts.count)
            writer = try SoundFileWriter(path: nextPath, sampleRate: Self.sampleRate, channels: channels, format: .wav)
            parts.append((nextPath, position))
            return min(frames, segmentSamples)
        }
        return min(frames, partEnd - position)
    }

    /// Shortens the timeline to `end`: parts that start at or after it go (a recording ending
    /// on a boundary, with media in flight past it), the last one left is truncated there. A
    /// part closed before cannot shrink; media a whole segment past the end (never in practice)
    /// stays in it.
    private func cut(atSample end: Int64) throws(SoundFileError) {
        while parts.count > 1, let last = parts.last, last.startSample >= end {
            try writer.close()
            unlink(last.path)
            parts.removeLast()
            position = last.startSample
            // The part before is complete and closed; nothing more is written to it.
            writer = try SoundFileWriter(reopeningForTruncation: parts[parts.count - 1].path)
        }
        let partStart = parts[parts.count - 1].startSample
        if end < position, end >= partStart {
            try writer.truncate(toFrames: end - partStart)
            position = end
        }
    }
}
