import Agent
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import BotKit

/// Capture processors on an ``AudioTrack``: they change what is encoded, run only on frames with
/// pushed audio, and come from the engine's default when the track has none.
@Suite struct AudioTrackProcessorTests {
    typealias Tracks = AudioTrackTests

    /// Pushes 1 s of a 440 Hz tone at half scale, pulls 50 packets and decodes them.
    static func encodeTone(_ track: AudioTrack) throws -> [Int16] {
        let tone = Tracks.tone(440, seconds: 1, sampleRate: 48_000)
        #expect(try track.tryPush(tone, sampleRate: 48_000, channels: 1))
        return try Tracks.decode((0..<50).map { _ in track.nextPacket() })
    }

    @Test("a capture processor changes what the track encodes")
    func captureProcessorChangesWhatIsEncoded() throws {
        let quieter = try AudioTrack(processor: .gain(.init(gainDecibels: -12, ceilingDecibels: 0, limit: .hard)))
        let plain = try AudioTrack()
        let processed = try Self.encodeTone(quieter)
        let reference = try Self.encodeTone(plain)
        // Past the encoder's start-up.
        let drop = 20 * log10(Tracks.rms(processed.dropFirst(4_800)) / Tracks.rms(reference.dropFirst(4_800)))
        let tone = goertzelPower(processed.dropFirst(4_800), frequency: 440)
        let other = goertzelPower(processed.dropFirst(4_800), frequency: 1_234)
        print("capture gain -12 dB: decoded level \(String(format: "%.2f", drop)) dB against the unprocessed track; tone/other \(tone / other)")
        #expect(abs(drop + 12) < 1)
        #expect(tone > 1_000 * other, "still the tone, only quieter")
        #expect(quieter.statistics.processorFailures == 0)
    }

    @Test("speex noise suppression on a bot track raises the SNR of what it sends")
    func noiseSuppressionOnATrack() throws {
        let signal = ToneInNoise(sampleRate: 48_000)
        let noisy = signal.samples(seconds: 5)
        let configuration = AudioTrack.Configuration(bitrate: 128_000, maxQueuedDuration: .seconds(6))
        let cleaned = try AudioTrack(configuration: configuration, processor: .noiseSuppression())
        let plain = try AudioTrack(configuration: configuration)
        for track in [cleaned, plain] { #expect(try track.tryPush(noisy, sampleRate: 48_000, channels: 1)) }
        let after = try Tracks.decode((0..<250).map { _ in cleaned.nextPacket() })
        let before = try Tracks.decode((0..<250).map { _ in plain.nextPacket() })
        let window = 96_000..<(after.count - 24_000)
        let gain = signal.snr(of: after, over: window) - signal.snr(of: before, over: window)
        print("speex capture processor through Opus: SNR \(String(format: "%.1f", signal.snr(of: before, over: window))) → \(String(format: "%.1f", signal.snr(of: after, over: window))) dB (+\(String(format: "%.1f", gain)) dB)")
        #expect(gain >= 6)
    }

    /// Counts the frames it is given.
    struct Counter: AudioProcessor {
        let format: AudioProcessingFormat
        let calls: Calls
        mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
            calls.count.add(1, ordering: .relaxed)
        }
    }

    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    static func counting(_ calls: Calls) -> AudioProcessorFactory {
        AudioProcessorFactory(name: "counter") { format throws(AudioProcessorError) in Counter(format: format, calls: calls) }
    }

    @Test func silenceSkipsTheProcessorAndTheDefaultIsAdoptedOnce() throws {
        let calls = Calls()
        let track = try AudioTrack()
        try track.adoptDefaultProcessor(Self.counting(calls))
        try track.adoptDefaultProcessor(.passThrough)  // a second default changes nothing
        _ = (0..<5).map { _ in track.nextPacket() }
        #expect(calls.count.load(ordering: .relaxed) == 0, "silence is not processed")
        #expect(try track.tryPush([Float](repeating: 0.1, count: 1_440), sampleRate: 48_000, channels: 1))
        _ = (0..<5).map { _ in track.nextPacket() }
        #expect(calls.count.load(ordering: .relaxed) == 2, "one and a half frames of audio: two frames processed")

        let own = Calls()
        let mine = try AudioTrack(processor: Self.counting(own))
        try mine.adoptDefaultProcessor(Self.counting(calls))
        #expect(try mine.tryPush([Float](repeating: 0.1, count: 960), sampleRate: 48_000, channels: 1))
        _ = mine.nextPacket()
        #expect(own.count.load(ordering: .relaxed) == 1)
        #expect(calls.count.load(ordering: .relaxed) == 2, "a track with its own processor ignores the default")
    }

    @Test func badProcessorsAreTypedErrors() throws {
        let stereo = try AudioProcessingFormat(sampleRate: 48_000, channels: 2, frameDuration: .milliseconds20)
        let mono = try AudioProcessingFormat(sampleRate: 48_000, channels: 1, frameDuration: .milliseconds20)
        let wrongFormat = AudioProcessorFactory(name: "stereo only") { _ throws(AudioProcessorError) in try AudioProcessorChain(format: stereo) }
        #expect(throws: AudioTrackError.processor(.formatMismatch(expected: mono, got: stereo))) {
            _ = try AudioTrack(processor: wrongFormat)
        }
        #expect(throws: AudioTrackError.processor(.formatMismatch(expected: mono, got: stereo))) {
            try AudioTrack().adoptDefaultProcessor(wrongFormat)
        }
        #expect(throws: AudioProcessorError.self) { _ = try AudioTrack(processor: .gain(.init(gainDecibels: 1_000))) }
    }

    /// Refuses every frame.
    struct Refusing: AudioProcessor {
        let format: AudioProcessingFormat
        mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
            throw .frameLength(expected: 0, got: samples.count)
        }
    }

    @Test func aRefusedFrameIsCountedAndSentUnprocessed() throws {
        let refusing = AudioProcessorFactory(name: "refusing") { format throws(AudioProcessorError) in Refusing(format: format) }
        let track = try AudioTrack(processor: refusing)
        let decoded = try Self.encodeTone(track)
        #expect(track.statistics.processorFailures == 50)
        #expect(Tracks.rms(decoded.dropFirst(4_800)) > 8_000, "the tone went out as it was")
    }
}
