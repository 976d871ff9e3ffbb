import Dispatch
import Foundation
import Speech
import Synchronization

/// One participant's ears for the voice agent. Turn detection runs where the track's frames
/// arrive (the ``TurnDetector`` costs microseconds a frame), so someone who starts to speak over
/// the bot is heard at once however far behind the recognizer is; recognition runs on a serial
/// queue of its own (pocketsphinx takes about a fifth of a core). What it finds goes to `events`:
/// speech starting (for barge-in) from the arriving thread, each finished turn with its words
/// from the queue.
///
/// The recognizer hears everything, silence included, so its clock stays the stream's; the
/// words of a turn are the finals it gave while the turn lasted plus what ``SpeechRecognizer/endUtterance()``
/// returns at its end, which is queued behind the turn's last frame. At most `capacity` frames
/// wait for the recognizer; more are dropped and counted (the turns go on). A recognizer that
/// fails is reported once; the turns go on without words.
final class TurnListener: @unchecked Sendable {
    // @unchecked Sendable: `detection` is behind a Mutex; `recognition` is touched only on
    // `queue` (dispatchPrecondition checks it); `waiting` is atomic.

    enum Event: Sendable {
        case speechStarted(arrival: ContinuousClock.Instant)
        /// Times are ms since the agent began listening; `endOfSpeech` is when the turn's last
        /// voiced frame arrived; `recognizing` how long the recognizer took to close the utterance.
        case turn(text: String, startMs: Int64, endMs: Int64, endOfSpeech: ContinuousClock.Instant, recognizing: Duration)
        case recognizerFailed(any Error)
    }

    private struct Detection {
        var detector: TurnDetector
        var lastVoicedArrival = ContinuousClock.now
        /// Where this participant's stream began on the agent's clock (ms since `clockStart`).
        var originMs: Int64?
    }

    private struct Recognition {
        var recognizer: (any SpeechRecognizer)?
        var words: [String] = []
        var done = false
    }

    private let queue: DispatchQueue
    private let waiting = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let capacity: Int
    private let clockStart: ContinuousClock.Instant
    private let events: @Sendable (Event) -> Void
    private let detection: Mutex<Detection>
    private var recognition: Recognition

    /// - Parameter clockStart: t=0 of the times in ``Event/turn``: when the agent began listening.
    init(display: String, endOfTurnMs: Int, capacity: Int, recognizer: (any SpeechRecognizer)?, clockStart: ContinuousClock.Instant,
         events: @escaping @Sendable (Event) -> Void) {
        queue = DispatchQueue(label: "agentd.agent.\(display)", qos: .userInitiated)
        self.capacity = max(1, capacity)
        self.clockStart = clockStart
        self.events = events
        detection = Mutex(Detection(detector: TurnDetector(endOfTurnMs: endOfTurnMs)))
        recognition = Recognition(recognizer: recognizer)
    }

    /// Frames the recognizer could not keep up with.
    var framesDropped: Int { dropped.load(ordering: .relaxed) }

    /// Takes a frame that arrived at `arrival`: detects turns now, and queues it for the
    /// recognizer (dropped and counted when `capacity` frames wait).
    func enqueue(_ samples: [Int16], arrival: ContinuousClock.Instant) {
        var started = false
        var ended: (startMs: Int64, endMs: Int64, endOfSpeech: ContinuousClock.Instant)?
        detection.withLock { detection in
            // The first sample was heard one frame before this frame arrived.
            let origin = detection.originMs ?? max(0, (arrival - clockStart).totalMilliseconds - Int64(samples.count) / 16)
            detection.originMs = origin
            var start = 0
            while start < samples.count {
                let end = min(start + TurnDetector.frameSamples, samples.count)
                let event = detection.detector.process(samples[start..<end])
                if detection.detector.lastFrameVoiced { detection.lastVoicedArrival = arrival }
                switch event {
                case .speechStarted?:
                    started = true
                case .turnEnded(let startMs, let lastVoicedMs)?:
                    ended = (origin + startMs, origin + lastVoicedMs, detection.lastVoicedArrival)
                case nil:
                    break
                }
                start = end
            }
        }
        if started {
            events(.speechStarted(arrival: arrival))
            queue.async { [self] in recognition.words.removeAll() }
        }
        if waiting.add(1, ordering: .relaxed).oldValue >= capacity {
            waiting.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
        } else {
            queue.async { [self] in
                waiting.subtract(1, ordering: .relaxed)
                recognize(samples)
            }
        }
        if let ended {
            queue.async { [self] in endTurn(startMs: ended.startMs, endMs: ended.endMs, endOfSpeech: ended.endOfSpeech) }
        }
    }

    /// Ends the stream (the recognizer is freed); an open turn is dropped.
    func finish() {
        queue.async { [self] in close() }
    }

    func finishAndWait() {
        queue.sync { [self] in close() }
    }

    private func recognize(_ samples: [Int16]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !recognition.done, let recognizer = recognition.recognizer else { return }
        do {
            collect(try recognizer.feed(samples))
        } catch {
            fail(error)
        }
    }

    private func endTurn(startMs: Int64, endMs: Int64, endOfSpeech: ContinuousClock.Instant) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !recognition.done else { return }
        let began = ContinuousClock.now
        if let recognizer = recognition.recognizer {
            do {
                collect(try recognizer.endUtterance())
            } catch {
                fail(error)
            }
        }
        let text = recognition.words.joined(separator: " ")
        recognition.words.removeAll()
        events(.turn(text: text, startMs: startMs, endMs: endMs, endOfSpeech: endOfSpeech, recognizing: ContinuousClock.now - began))
    }

    private func collect(_ results: [SpeechResult]) {
        for result in results where result.isFinal {
            let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { recognition.words.append(text) }
        }
    }

    private func fail(_ error: any Error) {
        recognition.recognizer = nil
        events(.recognizerFailed(error))
    }

    private func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !recognition.done else { return }
        recognition.done = true
        _ = try? recognition.recognizer?.finish()
        recognition.recognizer = nil
    }
}
