import Foundation
import TestSupport
import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct AudioResamplerTests {
    /// `seconds` of a sine at `frequency`, interleaved into `channels` copies (or per-channel
    /// frequencies), as floats at `amplitude` of full scale.
    static func tone(_ frequencies: [Double], seconds: Double, sampleRate: Int, amplitude: Float = 0.5) -> [Float] {
        let frames = Int(seconds * Double(sampleRate))
        var samples: [Float] = []
        samples.reserveCapacity(frames * frequencies.count)
        for index in 0..<frames {
            let time = Double(index) / Double(sampleRate)
            for frequency in frequencies { samples.append(amplitude * Float(sin(2 * Double.pi * frequency * time))) }
        }
        return samples
    }

    static func channel(_ samples: [Float], _ channel: Int, of channels: Int) -> [Int16] {
        stride(from: channel, to: samples.count, by: channels).map { PCMConversion.int16(samples[$0]) }
    }

    static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Whole stream through one resampler: one process call, then the flush.
    static func resampleAll(_ samples: [Float], from rate: Int, to outputRate: Int = 48_000, channels: Int = 1) throws -> [Float] {
        let resampler = try AudioResampler(inputRate: rate, outputRate: outputRate, channels: channels)
        return try resampler.process(samples) + resampler.flush()
    }

    @Test("a tone keeps its frequency, level and length on the way to 48 kHz", arguments: [8_000, 16_000, 22_050, 32_000, 44_100])
    func toneTo48k(inputRate: Int) throws {
        let input = Self.tone([440], seconds: 1, sampleRate: inputRate)
        let output = try Self.resampleAll(input, from: inputRate)
        // 1 s in, 1 s out: the flush ends the stream at exactly input * ratio.
        #expect(output.count == 48_000, "\(output.count) samples")

        let middle = Self.channel(Array(output[4_800..<43_200]), 0, of: 1)
        let atTone = goertzelPower(middle, frequency: 440)
        // Where the tone would sit had the samples been relabelled 48 kHz without resampling.
        let relabelled = goertzelPower(middle, frequency: 440 * Double(inputRate) / 48_000)
        let fifth = goertzelPower(middle, frequency: 660)
        print("resample \(inputRate) -> 48000: \(output.count) samples, 440 Hz vs relabelled \(atTone / relabelled)x, vs 660 Hz \(atTone / fifth)x, rms \(Self.rms(output)) (in \(Self.rms(input)))")
        #expect(atTone > 1_000 * relabelled)
        #expect(atTone > 1_000 * fifth)
        #expect(abs(Self.rms(Array(output[4_800..<43_200])) - Self.rms(input)) < 0.01, "level kept")
    }

    @Test("stereo keeps its channels apart")
    func stereoChannels() throws {
        let input = Self.tone([440, 660], seconds: 1, sampleRate: 22_050)
        let output = try Self.resampleAll(input, from: 22_050, channels: 2)
        #expect(output.count == 2 * 48_000)
        let left = Self.channel(output, 0, of: 2).dropFirst(4_800).prefix(38_400)
        let right = Self.channel(output, 1, of: 2).dropFirst(4_800).prefix(38_400)
        let leftRatio = goertzelPower(left, frequency: 440) / goertzelPower(left, frequency: 660)
        let rightRatio = goertzelPower(right, frequency: 660) / goertzelPower(right, frequency: 440)
        print("resample stereo: left 440/660 \(leftRatio)x, right 660/440 \(rightRatio)x")
        #expect(leftRatio > 1_000)
        #expect(rightRatio > 1_000)
    }

    @Test("blocks of odd sizes give the same output as one call")
    func chunkingDoesNotMatter() throws {
        let input = Self.tone([440, 1_000], seconds: 0.5, sampleRate: 44_100)
        let whole = try Self.resampleAll(input, from: 44_100, channels: 2)

        let resampler = try AudioResampler(inputRate: 44_100, outputRate: 48_000, channels: 2)
        var pieces: [Float] = []
        var start = 0
        var calls = 0
        let frameCounts = [1, 3, 17, 160, 509, 2, 1_001]
        while start < input.count {
            let end = min(input.count, start + 2 * frameCounts[calls % frameCounts.count])
            pieces += try resampler.process(Array(input[start..<end]))
            start = end
            calls += 1
        }
        pieces += try resampler.flush()
        let largestDifference = zip(whole, pieces).map { abs($0 - $1) }.max() ?? 0
        print("resample in \(calls) blocks: \(pieces.count) samples (one call \(whole.count)), largest difference \(largestDifference)")
        #expect(pieces.count == whole.count)
        #expect(whole.count == 2 * 24_000, "0.5 s at 44.1 kHz is 24000 frames at 48 kHz")
        #expect(largestDifference < 1e-6)
    }

    @Test("no block returns more than maximumOutputFrames promises, at any ratio or quality",
          arguments: [AudioResampler.Quality.fastest, .medium])
    func outputBound(quality: AudioResampler.Quality) throws {
        for (inputRate, outputRate) in [(8_000, 48_000), (44_100, 48_000), (96_000, 48_000), (192_000, 48_000), (48_000, 8_000), (192_000, 8_000)] {
            let resampler = try AudioResampler(inputRate: inputRate, outputRate: outputRate, channels: 1, quality: quality)
            let input = Self.tone([300], seconds: 0.2, sampleRate: inputRate)
            var consumed = 0
            var produced = 0
            var mostHeldBack = 0.0
            for blockFrames in [1, 5, 2_000, 37, 960, 3, 10_000, 40_000] where consumed < input.count {
                let block = Array(input[consumed..<min(input.count, consumed + blockFrames)])
                let bound = resampler.maximumOutputFrames(forInputFrames: block.count)
                let output = try resampler.process(block)
                #expect(output.count <= bound, "\(inputRate) -> \(outputRate): \(output.count) > \(bound)")
                consumed += block.count
                produced += output.count
                mostHeldBack = max(mostHeldBack, Double(consumed) - Double(produced) / resampler.ratio)
            }
            print("resample \(quality) \(inputRate) -> \(outputRate): at most \(mostHeldBack) input frames held back (bound \(resampler.maximumHeldBackFrames))")
            #expect(mostHeldBack < Double(resampler.maximumHeldBackFrames))
        }
    }

    @Test("equal rates pass samples through exactly")
    func passThrough() throws {
        let resampler = try AudioResampler(inputRate: 48_000, outputRate: 48_000, channels: 2)
        #expect(resampler.isPassThrough)
        let floats = Self.tone([440, 660], seconds: 0.1, sampleRate: 48_000)
        #expect(try resampler.process(floats) == floats)
        let shorts: [Int16] = [1, -2, 32_767, -32_768, 0, 7]
        #expect(try resampler.process(shorts) == shorts)
        #expect(try resampler.flush().isEmpty)
    }

    @Test("Int16 input comes back as Int16 at the new rate")
    func int16Path() throws {
        let input = PCMConversion.int16s(fromFloats: Self.tone([440], seconds: 0.5, sampleRate: 16_000))
        let resampler = try AudioResampler(inputRate: 16_000, outputRate: 48_000, channels: 1)
        let output = try resampler.process(input) + resampler.flushInt16()
        #expect(output.count == 24_000)
        let middle = output.dropFirst(2_400).prefix(19_200)
        #expect(goertzelPower(middle, frequency: 440) > 1_000 * goertzelPower(middle, frequency: 440 / 3))
    }

    @Test("decimating removes what the lower rate cannot hold instead of folding it down")
    func antiAliasing() throws {
        // 30 kHz is above 48 kHz's Nyquist frequency; without a filter it would fold to 18 kHz.
        let input = Self.tone([30_000], seconds: 0.5, sampleRate: 96_000)
        let output = try Self.resampleAll(input, from: 96_000)
        #expect(output.count == 24_000)
        let residue = Self.rms(Array(output[2_400..<21_600]))
        print("resample 96000 -> 48000 of a 30 kHz tone: rms \(residue) (in \(Self.rms(input)))")
        #expect(residue < 0.001 * Self.rms(input))
    }

    @Test("reset starts a new stream, as a fresh resampler would")
    func resetForgetsHistory() throws {
        let first = Self.tone([440], seconds: 0.1, sampleRate: 16_000)
        let second = Self.tone([1_000], seconds: 0.1, sampleRate: 16_000)
        let reused = try AudioResampler(inputRate: 16_000, outputRate: 48_000, channels: 1)
        _ = try reused.process(first)
        reused.reset()
        let fresh = try AudioResampler(inputRate: 16_000, outputRate: 48_000, channels: 1)
        #expect(try reused.process(second) == fresh.process(second))
        #expect(try reused.flush() == fresh.flush())
    }

    @Test("bad rates, channel counts and partial frames are refused with typed errors")
    func badArguments() throws {
        for rate in [0, -44_100, 7_999, 192_001] {
            #expect(throws: AudioResamplerError.unsupportedRate(rate)) {
                try AudioResampler(inputRate: rate, outputRate: 48_000, channels: 1)
            }
            #expect(throws: AudioResamplerError.unsupportedRate(rate)) {
                try AudioResampler(inputRate: 48_000, outputRate: rate, channels: 1)
            }
        }
        for channels in [0, 3, -1] {
            #expect(throws: AudioResamplerError.unsupportedChannels(channels)) {
                try AudioResampler(inputRate: 16_000, outputRate: 48_000, channels: channels)
            }
        }
        let stereo = try AudioResampler(inputRate: 16_000, outputRate: 48_000, channels: 2)
        #expect(throws: AudioResamplerError.partialFrame(sampleCount: 3, channels: 2)) {
            try stereo.process([Float](repeating: 0, count: 3))
        }
        #expect(throws: AudioResamplerError.partialFrame(sampleCount: 5, channels: 2)) {
            try stereo.process([Int16](repeating: 0, count: 5))
        }
        let passThrough = try AudioResampler(inputRate: 48_000, outputRate: 48_000, channels: 2)
        #expect(throws: AudioResamplerError.partialFrame(sampleCount: 1, channels: 2)) {
            try passThrough.process([Float(0)])
        }
        // The error reads as a sentence.
        #expect("\(AudioResamplerError.unsupportedRate(0))".contains("8000...192000"))
    }
}
