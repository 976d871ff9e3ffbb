import BotKit
import Foundation

/// Keeps an ``AudioTrack`` fed with a steady sine. Pushes wait while the track's queue is full, so
/// the track's pacer sets the pace and the feed never runs ahead by more than the queue.
enum ToneFeed {
    /// 100 ms per push: small next to the track's one-second queue.
    static let blockSamples = 4_800
    static let sampleRate = 48_000

    /// Runs until cancelled or the track closes.
    static func start(into track: AudioTrack, frequency: Double, amplitude: Double) -> Task<Void, Never> {
        Task {
            var oscillator = Oscillator(frequency: frequency, amplitude: amplitude, sampleRate: Double(sampleRate))
            while !Task.isCancelled {
                do {
                    try await track.push(oscillator.next(blockSamples), sampleRate: sampleRate, channels: 1)
                } catch {
                    return
                }
            }
        }
    }

    /// A sine with a phase kept in one period, so a long run does not lose precision.
    struct Oscillator {
        let step: Double
        let amplitude: Double
        var phase = 0.0

        init(frequency: Double, amplitude: Double, sampleRate: Double) {
            step = 2 * Double.pi * frequency / sampleRate
            self.amplitude = amplitude
        }

        mutating func next(_ count: Int) -> [Float] {
            var block = [Float](repeating: 0, count: count)
            for index in block.indices {
                block[index] = Float(sin(phase) * amplitude)
                phase += step
                if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
            }
            return block
        }
    }
}
