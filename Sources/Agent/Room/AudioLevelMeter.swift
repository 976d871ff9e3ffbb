import Synchronization

/// Measures the level of an audio stream as it passes: the RMS over fixed windows, and running
/// totals from which any reader can take the level over an interval of its own choosing.
///
/// The sink that owns the meter feeds it on its thread; ``current`` and ``totals`` can be read
/// from any thread (a stats reporter, a UI). The totals follow the W3C `totalAudioEnergy` and
/// `totalSamplesDuration` statistics: energy is the sum of each frame's mean square times its
/// duration, so two snapshots give the level in between with ``level(from:to:)`` without the
/// readers resetting anything under one another.
public final class AudioLevelMeter: Sendable {
    /// Running totals since the meter was made (or reset).
    public struct Totals: Sendable, Equatable {
        /// Sum over frames of mean square (samples in −1 ... 1) × frame duration in seconds.
        public var energy: Double = 0
        /// Seconds of audio measured.
        public var seconds: Double = 0

        public init(energy: Double = 0, seconds: Double = 0) {
            self.energy = energy
            self.seconds = seconds
        }
    }

    private struct State {
        var windowSquares: Double = 0
        var windowFrames = 0
        var current = AudioLevel.silence
        var totals = Totals()
    }

    /// How much audio each ``current`` reading covers.
    public let window: Duration
    private let state = Mutex(State())

    public init(window: Duration = .milliseconds(100)) {
        self.window = window > .zero ? window : .milliseconds(100)
    }

    /// The level of the last whole window; silence before the first one completes.
    public var current: AudioLevel { state.withLock { $0.current } }

    /// The running totals, for ``level(from:to:)``.
    public var totals: Totals { state.withLock { $0.totals } }

    /// The level between two readings of ``totals``; silence when no audio passed in between.
    public static func level(from earlier: Totals, to later: Totals) -> AudioLevel {
        let seconds = later.seconds - earlier.seconds
        guard seconds > 0 else { return .silence }
        return AudioLevel(meanSquare: (later.energy - earlier.energy) / seconds)
    }

    /// Measures interleaved `samples` (−1 ... 1) of `channels` channels at `sampleRate`.
    public func add(_ samples: [Float], channels: Int, sampleRate: Int) {
        guard channels > 0, sampleRate > 0, !samples.isEmpty else { return }
        var squares: Double = 0
        for sample in samples where !sample.isNaN {
            squares += Double(sample) * Double(sample)
        }
        let frames = samples.count / channels
        let windowFrames = max(1, Int(Double(sampleRate) * seconds(window)))
        state.withLock { state in
            state.totals.energy += squares / Double(channels) / Double(sampleRate)
            state.totals.seconds += Double(frames) / Double(sampleRate)
            state.windowSquares += squares / Double(channels)
            state.windowFrames += frames
            if state.windowFrames >= windowFrames {
                state.current = AudioLevel(meanSquare: state.windowSquares / Double(state.windowFrames))
                state.windowSquares = 0
                state.windowFrames = 0
            }
        }
    }

    /// Back to silence, for a track that restarts. The totals keep counting, so readers
    /// differencing them are not thrown off.
    public func reset() {
        state.withLock { state in
            state.windowSquares = 0
            state.windowFrames = 0
            state.current = .silence
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
