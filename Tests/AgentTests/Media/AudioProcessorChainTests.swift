import Testing

@testable import AgentMedia

@Suite struct AudioProcessorChainTests {
    /// A processor that applies `step` to every sample: two of them show the order they ran in.
    struct Step: AudioProcessor {
        let format: AudioProcessingFormat
        let step: @Sendable (Int16) -> Int16

        mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
            try checkFrameLength(of: samples)
            for index in samples.indices { samples[index] = step(samples[index]) }
        }
    }

    static func format(channels: Int = 1) throws -> AudioProcessingFormat {
        try AudioProcessingFormat(sampleRate: 16_000, channels: channels, frameDuration: .milliseconds20)
    }

    @Test func appliesItsMembersInOrder() throws {
        let format = try Self.format()
        let double = Step(format: format) { $0 * 2 }
        let addOne = Step(format: format) { $0 + 1 }
        var doubleThenAdd = try AudioProcessorChain(format: format, [double, addOne])
        var addThenDouble = try AudioProcessorChain(format: format, [addOne, double])
        var first = [Int16](repeating: 10, count: 320)
        var second = first
        try doubleThenAdd.process(&first)
        try addThenDouble.process(&second)
        #expect(first.allSatisfy { $0 == 21 })
        #expect(second.allSatisfy { $0 == 22 })
        // A chain is a processor: it nests.
        var nested = try AudioProcessorChain(format: format, [doubleThenAdd, double])
        var third = [Int16](repeating: 10, count: 320)
        try nested.process(&third)
        #expect(third.allSatisfy { $0 == 42 })
    }

    @Test func anEmptyChainPassesFramesThrough() throws {
        var chain = try AudioProcessorFactory.passThrough.makeProcessor(for: Self.format())
        var samples = (0..<320).map { Int16($0) }
        try chain.process(&samples)
        #expect(samples == (0..<320).map { Int16($0) })
    }

    @Test func factoriesChainInOrderAndMakeFreshProcessors() throws {
        let format = try Self.format()
        let quieter = try AudioProcessorFactory.gain(.init(gainDecibels: -20, ceilingDecibels: 0, limit: .hard))
        let clip = try AudioProcessorFactory.gain(.init(gainDecibels: 0, ceilingDecibels: -20, limit: .hard))
        // 10 000 → -20 dB → 1 000, then clipped at -20 dBFS (3 276): 1 000. The other way round:
        // clipped to 3 276 first, then 328.
        var quietThenClip = try AudioProcessorFactory.chain([quieter, clip]).makeProcessor(for: format)
        var clipThenQuiet = try AudioProcessorFactory.chain([clip, quieter]).makeProcessor(for: format)
        var first = [Int16](repeating: 10_000, count: 320)
        var second = first
        try quietThenClip.process(&first)
        try clipThenQuiet.process(&second)
        #expect(first.allSatisfy { $0 == 1_000 })
        #expect(second.allSatisfy { $0 == 328 })
        #expect(AudioProcessorFactory.chain([quieter, clip]).name == "gain -20.0 dB → gain 0.0 dB")
    }

    @Test func formatsAndLengthsAreChecked() throws {
        let mono = try Self.format()
        let stereo = try Self.format(channels: 2)
        #expect(throws: AudioProcessorError.formatMismatch(expected: mono, got: stereo)) {
            _ = try AudioProcessorChain(format: mono, [Step(format: stereo) { $0 }])
        }
        let wrong = AudioProcessorFactory(name: "wrong") { _ throws(AudioProcessorError) in Step(format: stereo) { $0 } }
        #expect(throws: AudioProcessorError.formatMismatch(expected: mono, got: stereo)) { _ = try wrong.makeProcessor(for: mono) }
        var chain = try AudioProcessorChain(format: mono)
        var long = [Int16](repeating: 0, count: 640)
        #expect(throws: AudioProcessorError.frameLength(expected: 320, got: 640)) { try chain.process(&long) }
    }

    @Test func badFormatsAreTypedErrors() {
        #expect(throws: AudioProcessorError.unsupportedChannels(0)) {
            _ = try AudioProcessingFormat(sampleRate: 48_000, channels: 0, frameDuration: .milliseconds10)
        }
        #expect(throws: AudioProcessorError.unsupportedChannels(-1)) {
            _ = try AudioProcessingFormat(sampleRate: 48_000, channels: -1, frameDuration: .milliseconds10)
        }
        for rate in [0, -48_000, 4_000, 22_050, 11_025, 384_000, Int.max] {
            #expect(throws: AudioProcessorError.unsupportedSampleRate(rate)) {
                _ = try AudioProcessingFormat(sampleRate: rate, channels: 1, frameDuration: .milliseconds20)
            }
        }
    }
}
