import Agent
import Foundation
import TestSupport
import Testing

@testable import BotKit

@Suite(.offThePool) struct PCMFileSourceTests {
    /// Writes `seconds` of tones (one frequency per channel) as a 16-bit WAV at `sampleRate`.
    private func writeWAV(_ path: String, frequencies: [Double], seconds: Double, sampleRate: Int) throws {
        let writer = try SoundFileWriter(path: path, sampleRate: sampleRate, channels: frequencies.count)
        var samples: [Int16] = []
        for index in 0..<Int(seconds * Double(sampleRate)) {
            let time = Double(index) / Double(sampleRate)
            for frequency in frequencies { samples.append(Int16(16_000 * sin(2 * Double.pi * frequency * time))) }
        }
        try writer.write(samples)
        try writer.close()
    }

    private func readAll(_ source: PCMFileSource) throws -> [EncodedMediaFrame] {
        var frames: [EncodedMediaFrame] = []
        while let frame = try source.next() { frames.append(frame) }
        return frames
    }

    private func decode(_ frames: [EncodedMediaFrame], channels: Int) throws -> [Int16] {
        let decoder = try OpusDecoder(channels: channels)
        var pcm: [Int16] = []
        for frame in frames {
            let decoded = try decoder.decode(frame.bytes)
            #expect(decoded.count == 960 * channels, "every frame is 20 ms at 48 kHz")
            pcm += decoded
        }
        return pcm
    }

    @Test("a 44.1 kHz WAV comes out as 48 kHz Opus frames of the right count, time and pitch")
    func wavAt44100() throws {
        let scratch = try ScratchDirectory("pcm-source")
        let path = scratch.path("cd.wav")
        try writeWAV(path, frequencies: [440], seconds: 1, sampleRate: 44_100)
        let source = try PCMFileSource(path: path)
        #expect(source.fileSampleRate == 44_100)
        let frames = try readAll(source)
        // 1 s is 48000 samples at 48 kHz: exactly 50 frames of 960.
        #expect(frames.count == 50)
        #expect(frames.enumerated().allSatisfy { $0.element.timestampNanoseconds == Int64($0.offset) * 20_000_000 })

        let decoded = try decode(frames, channels: 1)
        let middle = decoded.dropFirst(4_800).prefix(38_400)
        let atTone = goertzelPower(middle, frequency: 440)
        let relabelled = goertzelPower(middle, frequency: 440 * 44_100 / 48_000)
        print("PCM file 44.1 kHz: \(frames.count) frames, 440 Hz vs relabelled \(atTone / relabelled)x")
        #expect(atTone > 100 * relabelled)
        #expect(atTone > 100 * goertzelPower(middle, frequency: 660))

        // Rewinding starts the same timeline again.
        try source.rewind()
        let again = try readAll(source)
        #expect(again.count == 50)
        #expect(again.first?.timestampNanoseconds == 0)
    }

    @Test("a 22.05 kHz stereo WAV keeps its channels apart")
    func stereoAt22050() throws {
        let scratch = try ScratchDirectory("pcm-source")
        let path = scratch.path("stereo.wav")
        try writeWAV(path, frequencies: [440, 660], seconds: 0.5, sampleRate: 22_050)
        let source = try PCMFileSource(path: path)
        #expect(source.channels == 2)
        let frames = try readAll(source)
        #expect(frames.count == 25)
        let decoded = try decode(frames, channels: 2)
        let left = stride(from: 0, to: decoded.count, by: 2).map { decoded[$0] }.dropFirst(4_800).prefix(14_400)
        let right = stride(from: 1, to: decoded.count, by: 2).map { decoded[$0] }.dropFirst(4_800).prefix(14_400)
        #expect(goertzelPower(left, frequency: 440) > 100 * goertzelPower(left, frequency: 660))
        #expect(goertzelPower(right, frequency: 660) > 100 * goertzelPower(right, frequency: 440))
    }

    @Test("a rate the resampler cannot take is refused with a typed error")
    func unsupportedRate() throws {
        let scratch = try ScratchDirectory("pcm-source")
        let path = scratch.path("low.wav")
        try writeWAV(path, frequencies: [440], seconds: 0.1, sampleRate: 4_000)
        #expect(throws: AudioResamplerError.unsupportedRate(4_000)) { try PCMFileSource(path: path) }
    }
}
