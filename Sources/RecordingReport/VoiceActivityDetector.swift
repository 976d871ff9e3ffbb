import Foundation

/// Finds where someone speaks in their decoded audio: an energy detector with a hangover, run
/// over a participant's timeline WAV (which starts at the recording's t=0, so sample positions
/// are timeline positions).
///
/// The audio is cut into 10 ms frames. A frame is voiced when its RMS level is above both
/// ``Settings/thresholdDBFS`` and the noise floor plus ``Settings/marginDB``. The floor drops to
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

    private let frameSamples: Int
    private var frameSum = 0.0
    private var frameCount = 0
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
        close()
    }

    private mutating func endFrame() {
        let meanSquare = frameSum / Double(max(1, frameCount)) / (32_768.0 * 32_768.0)
        let level = meanSquare > 0 ? 10 * log10(meanSquare) : -120
        frameSum = 0
        frameCount = 0
        let voiced = level > max(settings.thresholdDBFS, noiseFloorDB + settings.marginDB)
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
