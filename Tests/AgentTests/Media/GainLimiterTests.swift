import Foundation
import Testing

@testable import AgentMedia

@Suite struct GainLimiterTests {
    static func format() throws -> AudioProcessingFormat {
        try AudioProcessingFormat(sampleRate: 48_000, channels: 1, frameDuration: .milliseconds10)
    }

    /// Full-scale extremes, zero and a ramp across the whole Int16 range, one 480-sample frame.
    static func extremes() -> [Int16] {
        var samples: [Int16] = [.max, .min, 0, 1, -1, 32_000, -32_000]
        let step = 65_536 / (480 - samples.count)
        for index in 0..<(480 - samples.count) { samples.append(Int16(clamping: -32_768 + index * step)) }
        return samples
    }

    @Test("the limiter never exceeds its ceiling and never wraps", arguments: [GainLimiter.Limit.hard, .soft], [0.0, -6, -20])
    func neverExceedsTheCeiling(limit: GainLimiter.Limit, ceiling: Double) throws {
        var limiter = try GainLimiter(format: Self.format(), settings: .init(gainDecibels: 40, ceilingDecibels: ceiling, limit: limit))
        let input = Self.extremes()
        var samples = input
        try limiter.process(&samples)
        let bound = Int(limiter.ceiling)
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        print("limiter \(limit) at \(ceiling) dBFS, +40 dB: peak \(peak) of ceiling \(bound)")
        #expect(peak <= bound)
        // No wraparound: every output keeps its input's sign (a wrapped sample flips it).
        for (before, after) in zip(input, samples) where before != 0 {
            #expect((before > 0) == (after > 0), "\(before) became \(after)")
        }
        #expect(samples[0] > 0 && samples[1] < 0)
    }

    @Test func gainIsExactBelowTheKnee() throws {
        var limiter = try GainLimiter(format: Self.format(), settings: .init(gainDecibels: -6.0206, ceilingDecibels: 0, limit: .soft))
        var samples = [Int16](repeating: 10_000, count: 480)
        samples[1] = -10_000
        try limiter.process(&samples)
        #expect(samples[0] == 5_000)
        #expect(samples[1] == -5_000)
    }

    @Test func softLimitBendsSmoothly() throws {
        var limiter = try GainLimiter(format: Self.format(), settings: .init(gainDecibels: 0, ceilingDecibels: 0, limit: .soft))
        var samples = (0..<480).map { Int16($0 * 68) }  // 0 ... 32572
        let input = samples
        try limiter.process(&samples)
        // Untouched up to the knee (half the ceiling), never above the input beyond it, well
        // below it near the ceiling, and rising throughout.
        #expect(zip(input, samples).allSatisfy { $0 <= 16_383 ? $1 == $0 : $1 <= $0 })
        #expect(zip(input, samples).allSatisfy { $0 < 28_000 || $1 < $0 - 1_000 })
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func absurdSettingsAreTypedErrors() throws {
        #expect(throws: AudioProcessorError.settingOutOfRange(name: "gain (dB)", value: 100, range: -60...40)) {
            _ = try GainLimiter(format: Self.format(), settings: .init(gainDecibels: 100))
        }
        #expect(throws: AudioProcessorError.self) { _ = try AudioProcessorFactory.gain(.init(gainDecibels: .nan)) }
        #expect(throws: AudioProcessorError.self) { _ = try AudioProcessorFactory.gain(.init(gainDecibels: .infinity)) }
        #expect(throws: AudioProcessorError.settingOutOfRange(name: "ceiling (dBFS)", value: 3, range: -40...0)) {
            _ = try AudioProcessorFactory.gain(.init(ceilingDecibels: 3))
        }
    }
}
