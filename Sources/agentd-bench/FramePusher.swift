import Agent
import BotKit
import Foundation
import Synchronization

/// Feeds one VideoTrack with MovingSquare frames at a fixed frame rate from a thread of its own.
/// VideoTrack encodes on the pushing thread, so each track gets one, like a camera's capture
/// thread. Frame k is due at start + k / fps and carries that capture time; a pusher more than a
/// frame late (the machine is saturated) skips to the current slot, as a camera drops frames,
/// and counts what it skipped.
final class FramePusher: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let skippedFrames = Atomic<Int>(0)
    private let done = DispatchSemaphore(value: 0)

    init(track: VideoTrack, square: MovingSquare, framesPerSecond: Int, name: String) {
        let thread = Thread { [self] in
            // Named so the benchmark's thread breakdown shows encoding apart from the transport
            // (a new thread otherwise inherits its creator's name).
            ThreadName.setCurrent(name)
            run(track: track, square: square, period: .seconds(1) / max(1, framesPerSecond))
            done.signal()
        }
        thread.start()
    }

    /// Frames not pushed because the pusher fell more than a frame behind.
    var skipped: Int { skippedFrames.load(ordering: .relaxed) }

    /// Stops pushing and waits for the thread to finish its frame. Call once.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        done.wait()
    }

    private func run(track: VideoTrack, square: MovingSquare, period: Duration) {
        let start = ContinuousClock.now
        var slot = 0
        while !stopped.load(ordering: .relaxed) {
            let due = start + period * slot
            let now = ContinuousClock.now
            if due > now {
                let wait = (due - now).components
                Thread.sleep(forTimeInterval: Double(wait.seconds) + Double(wait.attoseconds) / 1e18)
            } else if now - due > period {
                let behind = Int((now - due) / period)
                skippedFrames.add(behind, ordering: .relaxed)
                slot += behind
                continue
            }
            _ = try? track.push(square.frame(at: slot), capturedAt: due)
            slot += 1
        }
    }
}
