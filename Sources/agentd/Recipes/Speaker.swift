import BotKit

/// Says texts one after another on a speech recipe's ``AudioTrack``: each is synthesized, then
/// pushed (the push waits for the track's pacer, so speech goes out in real time). Requests
/// queue in order and never block the caller.
final class Speaker: Sendable {
    struct Counters: Sendable, Equatable {
        /// Texts fully handed to the track.
        var spoken = 0
        var failed = 0
        var secondsSpoken = 0.0
        var lastError: String?
    }

    private let requests: AsyncStream<String>.Continuation
    private let worker: Task<Void, Never>
    private let state: Shared<Counters>

    init(track: AudioTrack, synthesizer: SpeechSynthesizer, log: @escaping @Sendable (String) -> Void) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let state = Shared(Counters())
        requests = continuation
        self.state = state
        worker = Task {
            for await text in stream {
                do {
                    let speech = try await synthesizer.synthesize(text)
                    try await track.push(speech.samples, sampleRate: speech.sampleRate, channels: 1)
                    state.withLock { counters in
                        counters.spoken += 1
                        counters.secondsSpoken += speech.duration
                    }
                } catch is CancellationError {
                    return
                } catch {
                    state.withLock { counters in
                        counters.failed += 1
                        counters.lastError = ErrorText.describe(error)
                    }
                    log("agentd: could not say \"\(text.prefix(40))\": \(ErrorText.describe(error))")
                }
            }
        }
    }

    var counters: Counters { state.current }

    /// Queues `text`; the oldest waiting request is dropped when 32 wait.
    func say(_ text: String) {
        requests.yield(text)
    }

    func stop() {
        requests.finish()
        worker.cancel()
    }
}
