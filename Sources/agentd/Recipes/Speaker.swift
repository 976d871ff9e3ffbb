import BotKit

/// Says texts one after another on a speech recipe's ``AudioTrack``: each is synthesized, then
/// pushed (the push waits for the track's pacer, so speech goes out in real time). Requests
/// queue in order and never block the caller.
///
/// ``interrupt()`` is barge-in: what is queued on the track is dropped (the next packet is
/// silence), and so is every text waiting or being synthesized.
final class Speaker: Sendable {
    struct Counters: Sendable, Equatable {
        /// Texts fully handed to the track.
        var spoken = 0
        var failed = 0
        /// Texts cut off or dropped unsaid by ``Speaker/interrupt()``.
        var interrupted = 0
        var secondsSpoken = 0.0
        var lastError: String?
    }

    /// Called when a text's first audio goes to the track, with that moment.
    typealias Started = @Sendable (ContinuousClock.Instant) -> Void

    private struct Request: Sendable {
        var text: String
        var generation: UInt64
        var started: Started?
    }

    private struct State: Sendable {
        var counters = Counters()
        /// Bumped by every interrupt: requests of an older generation are not said.
        var generation: UInt64 = 0
        /// Requests queued or being said.
        var outstanding = 0
    }

    private let requests: AsyncStream<Request>.Continuation
    private let worker: Task<Void, Never>
    private let state: Shared<State>
    private let track: AudioTrack

    init(track: AudioTrack, synthesizer: SpeechSynthesizer, log: @escaping @Sendable (String) -> Void) {
        let (stream, continuation) = AsyncStream<Request>.makeStream(bufferingPolicy: .bufferingNewest(32))
        let state = Shared(State())
        requests = continuation
        self.state = state
        self.track = track
        worker = Task {
            for await request in stream {
                defer { state.withLock { $0.outstanding -= 1 } }
                let current = { state.withLock { $0.generation == request.generation } }
                guard current() else {
                    state.withLock { $0.counters.interrupted += 1 }
                    continue
                }
                do {
                    let speech = try await synthesizer.synthesize(request.text)
                    guard current() else {
                        state.withLock { $0.counters.interrupted += 1 }
                        continue
                    }
                    request.started?(.now)
                    try await track.push(speech.samples, sampleRate: speech.sampleRate, channels: 1)
                    state.withLock { state in
                        if state.generation == request.generation {
                            state.counters.spoken += 1
                            state.counters.secondsSpoken += speech.duration
                        } else {
                            state.counters.interrupted += 1
                        }
                    }
                } catch is CancellationError {
                    return
                } catch {
                    state.withLock { state in
                        state.counters.failed += 1
                        state.counters.lastError = ErrorText.describe(error)
                    }
                    log("agentd: could not say \"\(request.text.prefix(40))\": \(ErrorText.describe(error))")
                }
            }
        }
    }

    var counters: Counters { state.current.counters }

    /// True while a text waits, is synthesized, or its audio is still queued on the track.
    var isBusy: Bool { state.current.outstanding > 0 || track.queuedDuration > .zero }

    /// Queues `text`; the oldest waiting request is dropped when 32 wait. `started` is called
    /// when its audio begins (not when it is dropped or interrupted first).
    func say(_ text: String, started: Started? = nil) {
        let generation = state.withLock { state in
            state.outstanding += 1
            return state.generation
        }
        switch requests.yield(Request(text: text, generation: generation, started: started)) {
        case .enqueued: break
        // One request fewer waits either way: the oldest was dropped, or this one was never taken.
        case .dropped, .terminated: state.withLock { $0.outstanding -= 1 }
        @unknown default: break
        }
    }

    /// Stops talking now: the track's queued audio and every text not yet said are dropped.
    func interrupt() {
        state.withLock { $0.generation += 1 }
        track.clear()
    }

    func stop() {
        requests.finish()
        worker.cancel()
    }
}
