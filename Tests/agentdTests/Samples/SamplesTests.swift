import Agent
import Foundation
import TestSupport
import Testing

/// agentd-samples' files, checked by ffmpeg/ffprobe (independent decoders) and by the signal they
/// carry: the pictures are our test pattern, the tone is 440 Hz at half scale, and in the WebM
/// each beep starts where a white frame shows.
@Suite("Samples", .serialized, .offThePool)
struct SamplesTests {
    static let frameCount = 150
    static let width = 320, height = 240
    static let markSeconds = [0.5, 1.5, 2.5, 3.5, 4.5]

    @Test("all three samples are written, atomically, and ffmpeg decodes each without an error")
    func writesEverySample() async throws {
        let scratch = try ScratchDirectory("samples-all")
        let directory = scratch.path("made/here")  // created by the tool
        let result = try await GeneratedSamples.run(into: directory)
        #expect(result.status == 0, "\(result.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["pattern-vp8.ivf", "pattern.webm", "tone-440.opus"], "no .tmp- file is left: \(names)")
        for name in names {
            let errors = try await RecordingChecks.decodeErrors(directory + "/" + name)
            #expect(errors.isEmpty, "\(name): \(errors.prefix(600))")
        }
    }

    @Test("a bad sample name or no directory is a usage error (exit 2) that writes nothing")
    func refusesBadArguments() async throws {
        let scratch = try ScratchDirectory("samples-usage")
        let unknown = try await GeneratedSamples.run(into: scratch.directory.path, ["pattern.mp4"])
        #expect(unknown.status == 2)
        #expect(unknown.output.contains("unknown sample 'pattern.mp4'"), "\(unknown.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path).isEmpty)
        #expect(try await runTool(GeneratedSamples.tool, [], includeStderr: true).status == 2)
    }

    @Test("pattern-vp8.ivf: 150 VP8 frames of 320x240 over 5 s, a keyframe each second, decoding to the test pattern")
    func ivfIsThePattern() async throws {
        let scratch = try ScratchDirectory("samples-ivf")
        let ivf = try await GeneratedSamples.encoded("pattern-vp8.ivf", in: scratch)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path) == ["pattern-vp8.ivf"])
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                     "stream=codec_name,width,height,nb_read_frames,duration", "-of", "csv=p=0", ivf])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "vp8,320,240,5.000000,150", "\(probe.output)")

        // A keyframe each second: played as stored, a late subscriber waits at most that long.
        let keyframes = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-skip_frame", "nokey", "-select_streams", "v",
                                                         "-show_entries", "frame=pts_time", "-of", "csv=p=0", ivf])
        #expect(keyframes.output.split(separator: "\n").compactMap { Double($0) } == [0, 1, 2, 3, 4], "\(keyframes.output)")

        let pictures = try await decodedPictures(ivf)
        #expect(pictures.count == Self.frameCount)
        var worstPSNR = Double.infinity
        for (index, picture) in pictures.enumerated() {
            if index % 30 == 15 {
                let mean = Double(picture.y.reduce(0) { $0 + Int($1) }) / Double(picture.y.count)
                #expect(abs(mean - 235) < 4, "frame \(index) is a sync mark, white; mean luma \(mean)")
            } else {
                let reference = try I420Frame.testPattern(width: Self.width, height: Self.height, frameIndex: index)
                worstPSNR = min(worstPSNR, picture.psnr(against: reference) ?? 0)
            }
        }
        print("Samples: pattern-vp8.ivf worst PSNR against the test pattern \(String(format: "%.1f", worstPSNR)) dB")
        #expect(worstPSNR > 30)
    }

    @Test("tone-440.opus: 5 s of 440 Hz at half scale")
    func opusIsTheTone() async throws {
        let scratch = try ScratchDirectory("samples-opus")
        let opus = try await GeneratedSamples.encoded("tone-440.opus", in: scratch)
        #expect(try await RecordingChecks.streamCodecs(opus) == ["opus"])
        let samples = try await decodedAudio(opus)
        #expect(abs(Double(samples.count) / 48_000 - 5) < 0.03, "\(Double(samples.count) / 48_000) s")
        let middle = samples.dropFirst(48_000).prefix(3 * 48_000)
        let tone = goertzelPower(middle, frequency: 440)
        #expect(tone > 1000 * goertzelPower(middle, frequency: 660))
        #expect(tone > 1000 * goertzelPower(middle, frequency: 880))
        let rms = RecordingChecks.rms(middle)
        #expect(abs(rms - 0.5 * 32_767 / 2.0.squareRoot()) < 600, "RMS \(rms)")
    }

    @Test("pattern.webm: VP8 320x240 + Opus; five beeps start exactly where white frames show")
    func webmMarksAreInSync() async throws {
        let scratch = try ScratchDirectory("samples-webm")
        let webm = try await GeneratedSamples.encoded("pattern.webm", in: scratch)
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                     "stream=codec_name,width,height,channels,nb_read_frames", "-of", "csv=p=0", webm])
        let streams = probe.output.split(separator: "\n").map(String.init)
        #expect(streams.contains("opus,1,251") && streams.contains("vp8,320,240,150"), "\(streams)")
        #expect(try await RecordingChecks.mkvinfo(webm).status == 0)

        let beeps = try await AVSyncAnalysis.beepOnsets(webm)
        let (whites, times) = try await AVSyncAnalysis.whiteFrameOnsets(webm)
        print("Samples: pattern.webm beeps at \(beeps.map { String(format: "%.4f", $0) }) s, white frames at \(whites) s")
        #expect(times.count == Self.frameCount)
        try #require(beeps.count == Self.markSeconds.count && whites.count == Self.markSeconds.count)
        for (index, mark) in Self.markSeconds.enumerated() {
            #expect(abs(whites[index] - mark) < 0.001, "white frame \(index) at \(whites[index]) s")
            #expect(abs(beeps[index] - mark) < 0.002, "beep \(index) at \(beeps[index]) s")
        }
        let samples = try await decodedAudio(webm)
        let between = samples.dropFirst(Int(0.7 * 48_000)).prefix(Int(0.7 * 48_000))  // 0.7-1.4 s: tone only
        #expect(goertzelPower(between, frequency: 440) > 1000 * goertzelPower(between, frequency: 1000))
    }

    /// Every decoded picture as ffmpeg outputs it in I420, untouched by any range conversion.
    private func decodedPictures(_ path: String) async throws -> [I420Frame] {
        let raw = try await AVSyncAnalysis.output("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "rawvideo",
                                                                 "-pix_fmt", "yuv420p", "-fps_mode", "passthrough", "-"])
        let lumaSize = Self.width * Self.height, chromaSize = lumaSize / 4, frameSize = lumaSize + 2 * chromaSize
        let bytes = [UInt8](raw)
        return try stride(from: 0, to: bytes.count - frameSize + 1, by: frameSize).map { start in
            let u = start + lumaSize, v = u + chromaSize
            return try I420Frame(width: Self.width, height: Self.height, yStride: Self.width, uvStride: Self.width / 2,
                                 y: Array(bytes[start..<u]), u: Array(bytes[u..<v]), v: Array(bytes[v..<(v + chromaSize)]))
        }
    }

    private func decodedAudio(_ path: String) async throws -> [Int16] {
        let raw = try await AVSyncAnalysis.output("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-map", "0:a",
                                                                 "-f", "s16le", "-ac", "1", "-ar", "48000", "-"])
        return raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
