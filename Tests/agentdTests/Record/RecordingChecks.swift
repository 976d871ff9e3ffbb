import Agent
import Foundation
import TestSupport
import Testing

/// Independent checks of a recording's files: ffprobe, ffmpeg and mkvinfo from Debian, and
/// libsndfile for WAV samples.
enum RecordingChecks {
    /// Runs `scripts/lab <arguments>` (up with --loss, loss-stats, restart-janus, status).
    static func lab(_ arguments: String...) async throws -> ToolRun {
        try await run(Repository.root.appendingPathComponent("scripts/lab").path, arguments)
    }

    /// Runs `tool` to its end, off the cooperative pool, with its stderr in the output.
    static func run(_ tool: String, _ arguments: [String]) async throws -> ToolRun {
        try await runTool(tool, arguments, includeStderr: true)
    }

    /// Codec names of the streams ffprobe sees.
    static func streamCodecs(_ path: String) async throws -> [String] {
        let result = try await run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path])
        return result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The container's duration in seconds as ffprobe reads it (`format=duration`; 0 when it has none).
    static func formatDuration(_ path: String) async throws -> Double {
        let result = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// What `ffmpeg -v error -i F -f null -` prints: empty for a file that decodes cleanly.
    static func decodeErrors(_ path: String) async throws -> String {
        try await run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).output
    }

    /// The frames of the first video stream that ffprobe decodes (`-count_frames`); 0 when none.
    static func videoFrames(_ path: String) async throws -> Int {
        let count = try await run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                      "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    static func mkvinfo(_ path: String) async throws -> ToolRun {
        try await run("/usr/bin/mkvinfo", [path])
    }

    /// All samples of a mono or stereo WAV (first channel), with its rate.
    static func samples(_ path: String) throws -> (samples: [Int16], rate: Int) {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let all = try reader.readAll()
        let channels = reader.info.channels
        let mono = channels == 1 ? all : stride(from: 0, to: all.count, by: channels).map { all[$0] }
        return (mono, reader.info.sampleRate)
    }

    static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Int16 {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// Expects the half-scale 440 Hz tone the test publishers send: 30 dB above 660 and 880 Hz,
    /// RMS above 8000.
    static func expectTone<C: Collection>(_ samples: C, _ what: String, sourceLocation: SourceLocation = #_sourceLocation)
    where C.Element == Int16 {
        let tone = goertzelPower(samples, frequency: 440)
        let (at660, at880) = (goertzelPower(samples, frequency: 660), goertzelPower(samples, frequency: 880))
        #expect(tone > 1000 * at660 && tone > 1000 * at880, "\(what): \(toneReport(samples))", sourceLocation: sourceLocation)
        #expect(RecordingChecks.rms(samples) > 8000, "\(what): the half-scale tone is quiet: \(toneReport(samples))",
                sourceLocation: sourceLocation)
    }

    static func toneReport<C: Collection>(_ samples: C) -> String where C.Element == Int16 {
        let tone = goertzelPower(samples, frequency: 440)
        let others = max(goertzelPower(samples, frequency: 660), goertzelPower(samples, frequency: 880), 1)
        return "440 Hz \(String(format: "%.0f", 10 * log10(max(tone, 1) / others))) dB above 660/880 Hz, RMS \(Int(RecordingChecks.rms(samples)))"
    }
}
