import Foundation

/// Finds where someone speaks in their decoded audio: an energy detector with a spectral check
/// and a hangover. The recording report runs it over a participant's timeline WAV (which starts
/// at the recording's t=0, so sample positions are timeline positions); a channel runs it live
/// on each remote audio track for its active speakers (``isSpeaking``).
///
/// The audio is cut into 10 ms frames. A frame is voiced when its RMS level is above both
/// ``Settings/thresholdDBFS`` and the noise floor plus ``Settings/marginDB``, and its samples
/// cross zero at most ``Settings/maximumCrossingsPerSecond`` times a second: a cheap reading of
/// where the spectrum's weight lies. Broadband noise (hiss, wind, a rattling mic) crosses zero
/// on about every other sample, half the rate at any rate; voiced speech, whose energy is in its
/// low harmonics and formants, a few hundred to 2000 times a second. (The noise-like consonants,
/// s and f, fail it too, but the hangover carries them inside a word.) The floor drops to
/// any quieter frame at once and rises by at most ``Settings/floorRiseDBPerSecond``: the pauses
/// between words pull it down, so speech stays above it, while a noise that never pauses (a fan
/// above the threshold) stops counting as speech after a while instead of for the whole
/// recording. The price: a tone or voice that never pauses for over a minute fades out of the
/// count too. A pause shorter than
/// ``Settings/hangoverMs`` keeps the utterance open, as the gaps between words do; a burst
/// shorter than ``Settings/minimumSpeechMs`` (a click) is dropped. An interval ends where its
/// last voiced frame ends, not after the hangover, so its edges are within one frame of the
/// sound's.
public struct VoiceActivityDetector: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The level below which nothing is speech: -50 dBFS is quiet speech far from a mic,
        /// and well above the silence and PLC the recorder fills gaps with.
        public var thresholdDBFS: Double = -50
        public var marginDB: Double = 9
        public var floorRiseDBPerSecond: Double = 0.5
        public var hangoverMs: Int64 = 300
        public var minimumSpeechMs: Int64 = 40
        /// Above this many zero crossings a second a frame is noise, however loud (the rate of a
        /// 2.5 kHz tone; white noise at 16 kHz crosses about 8000 times a second).
        public var maximumCrossingsPerSecond: Double = 5000
        /// Intervals kept; past this the total still counts but the list stops (a hostile or
        /// pathological file must not grow the report without bound).
        public var maxIntervals = 20_000

        public init() {}
    }

    public let sampleRate: Int
    public let settings: Settings
    /// Speech intervals found so far, in order.
    public private(set) var intervals: [TimelineSpan] = []
    /// Speaking time over every interval, kept or not.
    public private(set) var speakingMs: Int64 = 0
    /// True once an interval was left out for ``Settings/maxIntervals``.
    public private(set) var truncated = false

    /// The last full frame's level (dBFS, -120 for digital silence) and whether it was voiced.
    public private(set) var lastLevelDBFS = -120.0
    public private(set) var lastFrameVoiced = false

    private let frameSamples: Int
    private var frameSum = 0.0
    private var frameCount = 0
    private var frameCrossings = 0
    private var previousSample: Int16 = 0
    /// Frames (of ``frameSamples``) seen so far.
    private var frameIndex: Int64 = 0
    private var noiseFloorDB = -90.0
    /// The open utterance: its first and last voiced frame.
    private var open: (first: Int64, last: Int64)?

    public init(sampleRate: Int, settings: Settings = Settings()) {
        self.sampleRate = max(1, sampleRate)
        self.settings = settings
        frameSamples = max(1, self.sampleRate / 100)
    }

    /// Takes the next mono samples.
    public mutating func process<Samples: Sequence>(_ samples: Samples) where Samples.Element == Int16 {
        for sample in samples {
            let value = Double(sample)
            frameSum += value * value
            if (sample < 0) != (previousSample < 0) { frameCrossings += 1 }
            previousSample = sample
            frameCount += 1
            if frameCount == frameSamples { endFrame() }
        }
    }

    /// Ends the audio (a last partial frame counts if it is at least half a frame) and closes
    /// the open utterance.
    public mutating func finish() {
        if frameCount * 2 >= frameSamples { endFrame() }
        frameSum = 0
        frameCount = 0
        frameCrossings = 0
        close()
    }

    /// True while an utterance is open: it has lasted ``Settings/minimumSpeechMs`` and its last
    /// voiced frame is at most ``Settings/hangoverMs`` ago (so a pause between words keeps it).
    public var isSpeaking: Bool {
        guard let current = open else { return false }
        return milliseconds(frames: current.last + 1 - current.first) >= settings.minimumSpeechMs
            && milliseconds(frames: frameIndex - current.last - 1) <= settings.hangoverMs
    }

    /// The media time (ms from the first sample) the detector has reached.
    public var processedMs: Int64 { milliseconds(frames: frameIndex) }

    private mutating func endFrame() {
        let meanSquare = frameSum / Double(max(1, frameCount)) / (32_768.0 * 32_768.0)
        let level = meanSquare > 0 ? 10 * log10(meanSquare) : -120
        let crossingsPerSecond = Double(frameCrossings) * Double(sampleRate) / Double(max(1, frameCount))
        frameSum = 0
        frameCount = 0
        frameCrossings = 0
        classify(level: level, noiseLike: crossingsPerSecond > settings.maximumCrossingsPerSecond)
    }

    /// Takes `durationMs` of audio known only by its level (an RFC 6464 header extension's, in
    /// dBov, which for Int16 PCM is dBFS): as many frames at that level, with no spectral check.
    public mutating func process(levelDBFS level: Double, durationMs: Int64) {
        let duration = max(0, min(durationMs, 1000))
        let frames = max(1, (duration * Int64(sampleRate) / 1000 + Int64(frameSamples / 2)) / Int64(frameSamples))
        for _ in 0..<frames { classify(level: level, noiseLike: false) }
    }

    private mutating func classify(level: Double, noiseLike: Bool) {
        let voiced = level > max(settings.thresholdDBFS, noiseFloorDB + settings.marginDB) && !noiseLike
        lastLevelDBFS = level
        lastFrameVoiced = voiced
        noiseFloorDB = min(level, noiseFloorDB + settings.floorRiseDBPerSecond * Double(frameSamples) / Double(sampleRate))
        if voiced {
            if let current = open, milliseconds(frames: frameIndex - current.last - 1) <= settings.hangoverMs {
                open = (current.first, frameIndex)
            } else {
                close()
                open = (frameIndex, frameIndex)
            }
        }
        frameIndex += 1
    }

    private mutating func close() {
        guard let current = open else { return }
        open = nil
        let span = TimelineSpan(startMs: milliseconds(frames: current.first), endMs: milliseconds(frames: current.last + 1))
        guard span.durationMs >= settings.minimumSpeechMs else { return }
        speakingMs += span.durationMs
        if intervals.count < settings.maxIntervals {
            intervals.append(span)
        } else {
            truncated = true
        }
    }

    /// The timeline time (ms) of a frame boundary, from the sample count (exact at any rate).
    private func milliseconds(frames: Int64) -> Int64 {
        frames * Int64(frameSamples) * 1000 / Int64(sampleRate)
    }
}
