import BotKit
import Foundation

/// Feeds a bot's ``AudioTrack`` a 440 Hz tone (16 kHz PCM in 100 ms blocks, paced by the track's
/// backpressure) until the returned task is cancelled.
enum TonePusher {
    static func start(_ audio: AudioTrack, frequency: Double = 440) -> Task<Void, Error> {
        Task {
            var phase = 0.0
            while !Task.isCancelled {
                let block = (0..<1600).map { _ -> Int16 in
                    defer { phase += 2 * Double.pi * frequency / 16_000 }
                    return Int16(sin(phase) * 12_000)
                }
                try await audio.push(block, sampleRate: 16_000, channels: 1)
            }
        }
    }
}
