import BotKit

/// Pushes a ``MovingSquare`` into a ``VideoTrack`` at a steady frame rate, on the track's own
/// clock (frame n at start + n / fps), until cancelled or the track closes.
enum PatternFeed {
    static func start(into track: VideoTrack, square: MovingSquare, framesPerSecond: Int) -> Task<Void, Never> {
        Task {
            let start = ContinuousClock.now
            var index = 0
            while !Task.isCancelled {
                let due = start + .nanoseconds(Int64(index) * 1_000_000_000 / Int64(framesPerSecond))
                do {
                    try await Task.sleep(until: due, clock: .continuous)
                    _ = try track.push(square.frame(at: index), capturedAt: due)
                } catch {
                    return
                }
                index += 1
            }
        }
    }
}
