import Foundation
import TestSupport

/// Media files the play tests send, made with ffmpeg's own encoders (independent of ours).
enum PlayMedia {
    /// A 440 Hz (or `frequency`) tone in Ogg/Opus.
    static func toneOpus(_ path: String, seconds: Int, frequency: Int = 440) async throws {
        try await make(["-f", "lavfi", "-i", "sine=f=\(frequency):d=\(seconds)", "-c:a", "libopus", path])
    }

    /// A moving test pattern in VP8 IVF, a keyframe every second.
    static func patternIVF(_ path: String, seconds: Int, size: String = "320x240", fps: Int = 25) async throws {
        try await make([
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(fps):duration=\(seconds)", "-c:v", "libvpx", "-g", "\(fps)",
            "-b:v", "400k", path,
        ])
    }

    private static func make(_ arguments: [String]) async throws {
        let result = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments, includeStderr: true)
        guard result.status == 0 else { throw ChildProcess.Failure(description: "ffmpeg \(arguments): \(result.output)") }
    }
}
