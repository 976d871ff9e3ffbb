import BotKit
import TestSupport

/// Feeds a bot's ``VideoTrack`` a 320x240 moving square at 15 fps while `recording` runs (at
/// most 30 s), paced by the clock.
enum SquarePusher {
    static func push(_ video: VideoTrack, while recording: ChildProcess) async throws {
        let square = try MovingSquare(width: 320, height: 240)
        let start = ContinuousClock.now
        var pushed = 0
        while recording.isRunning, ContinuousClock.now - start < .seconds(30) {
            _ = try video.push(square.frame(at: pushed))
            pushed += 1
            try await Task.sleep(until: start + .milliseconds(pushed * 1000 / 15), clock: .continuous)
        }
    }
}
