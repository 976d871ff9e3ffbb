import Foundation
import Testing

@testable import Agent
@testable import AgentMedia

@Suite struct SoundFileTests {
    /// A fresh directory per test, removed afterwards.
    private final class Scratch {
        let directory: URL
        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("agent-soundfile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    }

    /// Deterministic stereo content where every sample differs from its neighbours.
    private func stereoRamp(frames: Int) -> [Int16] {
        (0..<(frames * 2)).map { Int16(truncatingIfNeeded: $0 &* 37 &- 20_000) }
    }

    @Test func wavRoundTripIsBitExact() throws {
        let scratch = try Scratch()
        let path = scratch.path("stereo.wav")
        let samples = stereoRamp(frames: 48_000)
        let writer = try SoundFileWriter(path: path, sampleRate: 48_000, channels: 2)
        for start in stride(from: 0, to: samples.count, by: 1_920) {
            try writer.write(Array(samples[start..<min(samples.count, start + 1_920)]))
        }
        #expect(writer.framesWritten == 48_000)
        try writer.close()
        try writer.close()  // idempotent

        let reader = try SoundFileReader(path: path)
        #expect(reader.info.container == .wav)
        #expect(reader.info.encoding == .pcm16)
        #expect(reader.info.sampleRate == 48_000)
        #expect(reader.info.channels == 2)
        #expect(reader.info.frames == 48_000)
        #expect(reader.info.duration == 1.0)
        let read = try reader.readAll()
        #expect(read == samples)
        // 44-byte canonical header + 4 bytes per stereo frame.
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == 44 + 48_000 * 4)

        try reader.seek(toFrame: 100)
        #expect(try reader.read(maxFrames: 2) == Array(samples[200..<204]))
        let floats = try reader.readFloat(maxFrames: 1)
        #expect(floats.count == 2)
        #expect(abs(floats[0] - Float(samples[204]) / 32768) < 1e-6)
        reader.close()
        reader.close()
        #expect(throws: SoundFileError.closed(path: path)) { try reader.read(maxFrames: 1) }
    }

    @Test func monoWavAndSilence() throws {
        let scratch = try Scratch()
        let path = scratch.path("mono.wav")
        let writer = try SoundFileWriter(path: path, channels: 1)
        try writer.write([1, 2, 3])
        try writer.writeSilence(frames: 10_000)
        try writer.write([-4])
        try writer.close()
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.channels == 1)
        #expect(reader.info.frames == 10_004)
        let read = try reader.readAll()
        #expect(Array(read.prefix(3)) == [1, 2, 3])
        #expect(read[3..<10_003].allSatisfy { $0 == 0 })
        #expect(read.last == -4)
    }

    @Test func unclosedWriterLeavesAReadableFile() throws {
        let scratch = try Scratch()
        let path = scratch.path("growing.wav")
        let samples = stereoRamp(frames: 9_600)
        let writer = try SoundFileWriter(path: path, channels: 2)
        try writer.write(Array(samples[0..<(4_800 * 2)]))

        // Read the live file while the writer is still open.
        let live = try SoundFileReader(path: path)
        #expect(live.info.frames == 4_800)
        #expect(try live.readAll() == Array(samples[0..<(4_800 * 2)]))

        // A copy taken now is what a kill would leave behind.
        try writer.write(Array(samples[(4_800 * 2)...]))
        let snapshot = scratch.path("snapshot.wav")
        try FileManager.default.copyItem(atPath: path, toPath: snapshot)
        // libsndfile forgives a stale header, stricter readers do not: check the sizes themselves.
        //   offset 4: RIFF chunk size = file size - 8; offset 40: data chunk size (44-byte header).
        let header = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        func littleEndian32(_ offset: Int) -> Int {
            (0..<4).reduce(0) { $0 | Int(header[offset + $1]) << (8 * $1) }
        }
        #expect(String(decoding: header[36..<40], as: UTF8.self) == "data")
        #expect(littleEndian32(4) == header.count - 8)
        #expect(littleEndian32(40) == 9_600 * 4)
        let copy = try SoundFileReader(path: snapshot)
        #expect(copy.info.frames == 9_600)
        #expect(try copy.readAll() == samples)
        try writer.close()
    }

    @Test func badFilesGiveTypedErrors() throws {
        let scratch = try Scratch()
        func expectOpenFails(_ path: String, _ label: String) {
            do {
                _ = try SoundFileReader(path: path)
                Issue.record("\(label) opened")
            } catch {
                guard case .library(let operation, let failedPath, let code, let message) = error else {
                    Issue.record("\(label): unexpected \(error)")
                    return
                }
                #expect(operation == "open")
                #expect(failedPath == path)
                #expect(code != 0, "\(label)")
                #expect(!message.isEmpty)
            }
        }

        let garbage = scratch.path("garbage.wav")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: garbage))
        expectOpenFails(garbage, "garbage")

        let empty = scratch.path("empty.wav")
        try Data().write(to: URL(fileURLWithPath: empty))
        expectOpenFails(empty, "empty")
        expectOpenFails(scratch.path("missing.wav"), "missing")

        // A real WAV cut inside its header.
        let good = scratch.path("good.wav")
        let writer = try SoundFileWriter(path: good, channels: 2)
        try writer.write(stereoRamp(frames: 1_000))
        try writer.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let headerCut = scratch.path("header-cut.wav")
        try bytes.prefix(30).write(to: URL(fileURLWithPath: headerCut))
        expectOpenFails(headerCut, "header cut")

        // Cut inside the data: opens, and yields at most what is there, matching the original.
        let dataCut = scratch.path("data-cut.wav")
        try bytes.prefix(44 + 400 + 2).write(to: URL(fileURLWithPath: dataCut))
        let cutReader = try SoundFileReader(path: dataCut)
        #expect(cutReader.info.frames <= 101)
        let cutSamples = try cutReader.readAll()
        #expect(cutSamples.count <= 202)
        #expect(cutSamples.prefix(200) == stereoRamp(frames: 100)[...])

        #expect(throws: SoundFileError.self) { try SoundFileWriter(path: scratch.path("nodir/x.wav")) }
        #expect(throws: SoundFileError.self) { try SoundFileWriter(path: scratch.path("x.wav"), channels: 0) }
        let stereo = try SoundFileWriter(path: scratch.path("odd.wav"), channels: 2)
        #expect(throws: SoundFileError.self) { try stereo.write([1, 2, 3]) }
        try stereo.close()
        #expect(throws: SoundFileError.closed(path: scratch.path("odd.wav"))) { try stereo.write([1, 2]) }
    }

    @Test func flacRoundTripIsLossless() throws {
        let scratch = try Scratch()
        let path = scratch.path("tone.flac")
        let tone = SignalMetrics.tone(seconds: 0.5)
        let writer = try SoundFileWriter(path: path, channels: 1, format: .flac)
        try writer.write(tone)
        try writer.close()
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.container == .flac)
        #expect(reader.info.frames == Int64(tone.count))
        #expect(try reader.readAll() == tone)
    }

    @Test func oggVorbisReadsBackCloseToTheOriginal() throws {
        let scratch = try Scratch()
        let path = scratch.path("tone.ogg")
        let tone = SignalMetrics.tone(seconds: 1)
        let writer = try SoundFileWriter(path: path, channels: 1, format: .oggVorbis(quality: 0.6))
        try writer.write(tone)
        try writer.close()
        let reader = try SoundFileReader(path: path)
        #expect(reader.info.container == .ogg)
        #expect(reader.info.encoding == .vorbis)
        #expect(reader.info.sampleRate == 48_000)
        let read = try reader.readAll()
        #expect(abs(read.count - tone.count) <= 1_024)
        let lag = SignalMetrics.bestLag(reference: tone, output: read, start: 4_800, window: 4_800, maxLag: 200)
        let snr = SignalMetrics.snr(reference: tone, output: read, lag: lag, start: 4_800, window: 38_400)
        print("ogg vorbis q0.6: \(read.count) of \(tone.count) frames, lag \(lag), SNR \(snr) dB")
        #expect(snr > 15)
    }
}
