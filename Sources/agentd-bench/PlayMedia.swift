import Foundation

/// The files both sides of `agentd-bench play` publish: given with --audio/--video, or made with
/// ffmpeg into the work directory (nothing is downloaded): a 440 Hz Opus tone and a 640x480@30
/// VP8 IVF of ffmpeg's moving test pattern, 10 s each, played in a loop.
struct PlayMedia: Sendable {
    let audio: String
    let video: String
    /// One line per file for the run's header.
    let lines: [String]

    static let seconds = 10

    static func prepare(_ options: PublishOptions, in work: String, ffmpeg: String = "/usr/bin/ffmpeg") throws(BenchError) -> PlayMedia {
        var lines: [String] = []
        let audio = try file(
            "audio", given: options.audio, made: "\(work)/tone.opus", ffmpeg: ffmpeg,
            arguments: [
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-ac", "1",
                "-c:a", "libopus", "-b:a", "64k", "-frame_duration", "20", "-f", "ogg",
            ],
            how: "made with ffmpeg: 440 Hz, Opus 48 kHz mono 64 kb/s, 20 ms packets, \(seconds) s", lines: &lines)
        let video = try file(
            "video", given: options.video, made: "\(work)/clip.ivf", ffmpeg: ffmpeg,
            arguments: [
                "-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30", "-t", String(seconds), "-c:v", "libvpx",
                "-b:v", "\(options.clipKbps)k", "-g", "60", "-deadline", "realtime", "-cpu-used", "4", "-f", "ivf",
            ],
            how: "made with ffmpeg's libvpx: testsrc2 640x480@30, VP8 \(options.clipKbps) kb/s target, keyframe every 2 s, \(seconds) s",
            lines: &lines)
        return PlayMedia(audio: audio, video: video, lines: lines)
    }

    /// The given file, or `made` written by ffmpeg with `arguments`; adds its header line.
    private static func file(
        _ kind: String, given: String?, made: String, ffmpeg: String, arguments: [String], how: String, lines: inout [String]
    ) throws(BenchError) -> String {
        if let given {
            lines.append("\(kind): \(given) (given), \(size(given))")
            return given
        }
        try make(ffmpeg, arguments + [made])
        lines.append("\(kind): \(made) (\(how)), \(size(made))")
        return made
    }

    private static func make(_ ffmpeg: String, _ arguments: [String]) throws(BenchError) {
        let (status, _) = try ToolOutput.run(ffmpeg, ["-loglevel", "error", "-y"] + arguments)
        guard status == 0, let output = arguments.last, FileManager.default.fileExists(atPath: output) else {
            throw BenchError("ffmpeg failed (status \(status)) making \(arguments.last ?? "?"); apt-get install ffmpeg")
        }
    }

    /// File size and the bitrate it makes over `seconds`.
    private static func size(_ path: String) -> String {
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.doubleValue ?? 0
        return String(format: "%.0f kB, %.0f kb/s over %d s", bytes / 1000, bytes * 8 / 1000 / Double(seconds), seconds)
    }
}
