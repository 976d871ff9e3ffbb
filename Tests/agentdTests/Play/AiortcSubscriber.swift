import Foundation
import TestSupport
import Testing

/// `peers/subscriber.py` as the play tests run it: it waits (up to 20 s) for `display`'s feed to
/// appear in `room`, records it for `seconds` into `out` (audio.wav, video.webm, summary.json)
/// and exits, which is checked.
enum AiortcSubscriber {
    static func record(
        _ lab: LabEnvironment, room: String, display: String, out: String, seconds: Int = 6,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let subscriber = try ChildProcess(
            Repository.python,
            [Repository.peer("subscriber.py"), "--ws", lab.janusWS, "--room", room, "--feed-display", display,
             "--out", out, "--duration", String(seconds), "--find-timeout", "20"],
            name: "aiortc subscriber")
        defer { subscriber.terminate() }
        _ = try await subscriber.waitForLine(prefix: "READY", within: .seconds(90))
        try await pollUntil(timeout: .seconds(30), "the subscriber to finish") { !subscriber.isRunning }
        #expect(subscriber.exitStatus == 0, "\(subscriber.stderr.suffix(2000))", sourceLocation: sourceLocation)
    }
}
