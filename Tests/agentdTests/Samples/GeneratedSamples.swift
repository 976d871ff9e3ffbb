import Foundation
import TestSupport

/// Samples made for one test in its scratch directory, the way scripts/make-samples makes
/// samples/: agentd-samples for the encoded files, sox for the WAV. Tests never rely on samples/.
enum GeneratedSamples {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static var tool: String { AgentdBinary.builtProduct("agentd-samples") }

    /// Runs agentd-samples for `names` into `directory` and returns the tool's run.
    @discardableResult
    static func run(into directory: String, _ names: [String] = []) async throws -> ToolRun {
        try await runTool(tool, [directory] + names, includeStderr: true)
    }

    /// Writes `name` (e.g. `pattern-vp8.ivf`) into `scratch` and returns its path.
    static func encoded(_ name: String, in scratch: ScratchDirectory) async throws -> String {
        let result = try await run(into: scratch.directory.path, [name])
        guard result.status == 0 else { throw Failure(description: "agentd-samples \(name) exited \(result.status): \(result.output)") }
        return scratch.path(name)
    }

    /// `pattern-h264.h264`: 5 s of ffmpeg's test pattern at 320x240, 30 fps, libx264 constrained
    /// baseline (no B-frames) with an IDR every `keyframeInterval` frames, by default 90: 3 s (a
    /// receiver of `agentd play` joining between them gets agentd's own), as an Annex B
    /// elementary stream.
    static func h264Stream(in scratch: ScratchDirectory, keyframeInterval: Int = 90) async throws -> String {
        let path = scratch.path("pattern-h264.h264")
        let result = try await runTool("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-t", "5", "-c:v", "libx264",
            "-profile:v", "baseline", "-pix_fmt", "yuv420p", "-g", String(keyframeInterval), "-b:v", "500k", "-bsf:v", "h264_mp4toannexb",
            "-f", "h264", path], includeStderr: true)
        guard result.status == 0 else { throw Failure(description: "ffmpeg exited \(result.status): \(result.output)") }
        return path
    }

    /// `pattern-h264.mkv`: the same picture as ``h264Stream(in:keyframeInterval:)`` (an IDR every
    /// 3 s) with a 440 Hz Opus tone, in Matroska as ffmpeg writes it (avcC CodecPrivate,
    /// length-prefixed samples, parameter sets out of band).
    static func h264Matroska(in scratch: ScratchDirectory) async throws -> String {
        let path = scratch.path("pattern-h264.mkv")
        let result = try await runTool("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=48000", "-t", "5", "-c:v", "libx264", "-profile:v", "baseline", "-pix_fmt", "yuv420p",
            "-g", "90", "-b:v", "500k", "-c:a", "libopus", "-ac", "2", path], includeStderr: true)
        guard result.status == 0 else { throw Failure(description: "ffmpeg exited \(result.status): \(result.output)") }
        return path
    }

    /// `tone-440.wav` as scripts/make-samples writes it: 48 kHz mono s16, half scale.
    static func toneWAV(in scratch: ScratchDirectory, frequency: Int = 440, seconds: Int = 5) async throws -> String {
        let path = scratch.path("tone-\(frequency).wav")
        let result = try await runTool("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", "-t", "wav", path,
                                                  "synth", String(seconds), "sine", String(frequency), "vol", "0.5"], includeStderr: true)
        guard result.status == 0 else { throw Failure(description: "sox exited \(result.status): \(result.output)") }
        return path
    }
}
