import Dispatch
import Foundation
import Speech
import Synchronization

/// One participant's ears for the voice agent, on a serial queue of their own: the track's sink
/// counts and queues 16 kHz frames with their arrival time (never waiting), and here each goes
/// through the ``TurnDetector`` and the recognizer. What it finds goes to `events`, on this queue:
/// speech starting (for barge-in) and each finished turn with its words.
///
/// The recognizer hears everything, silence included, so its clock stays the stream's; the
/// words of a turn are the finals it gave while the turn lasted plus what ``SpeechRecognizer/endUtterance()``
/// returns at its end. A recognizer that fails is reported once; the turns go on without words.
final class TurnListener: @unchecked Sendable {
    // @unchecked Sendable: everything but `waiting` is touched only on `queue`
    // (dispatchPrecondition checks it).

    enum Event: Sendable {
        case speechStarted(arrival: ContinuousClock.Instant)
        /// Times are ms since the agent began listening; `endOfSpeech` is when the turn's last
        /// voiced frame arrived; `recognizing` how long the recognizer took to close the utterance.
        case turn(text: String, startMs: Int64, endMs: Int64, endOfSpeech: ContinuousClock.Instant, recognizing: Duration)
        case recognizerFailed(any Error)
    }

    private let queue: DispatchQueue
    private let waiting = Atomic<Int>(0)
    private let capacity: Int
    private let events: @Sendable (Event) -> Void
    private var detector: TurnDetector
    private var recognizer: (any SpeechRecognizer)?
    private var words: [String] = []
    private var lastVoicedArrival = ContinuousClock.now
    private var done = false
    private let clockStart: ContinuousClock.Instant
    /// Where this participant's stream began on the agent's clock (ms since `clockStart`).
    private var originMs: Int64?

    /// - Parameter clockStart: t=0 of the times in ``Event/turn``: when the agent began listening.
    init(display: String, endOfTurnMs: Int, capacity: Int, recognizer: (any SpeechRecognizer)?, clockStart: ContinuousClock.Instant,
         events: @escaping @Sendable (Event) -> Void) {
        self.clockStart = clockStart
        queue = DispatchQueue(label: "agentd.agent.\(display)", qos: .userInitiated)
        self.capacity = max(1, capacity)
        detector = TurnDetector(endOfTurnMs: endOfTurnMs)
        self.recognizer = recognizer
        self.events = events
    }

    /// Queues a frame that arrived at `arrival`; false (dropped) when `capacity` frames wait.
    func enqueue(_ samples: [Int16], arrival: ContinuousClock.Instant) -> Bool {
        if waiting.add(1, ordering: .relaxed).oldValue >= capacity {
            waiting.subtract(1, ordering: .relaxed)
            return false
        }
        queue.async { [self] in
            waiting.subtract(1, ordering: .relaxed)
            take(samples, arrival: arrival)
        }
        return true
    }

    /// Ends the stream (the recognizer is freed); an open turn is dropped.
    func finish() {
        queue.async { [self] in close() }
    }

    func finishAndWait() {
        queue.sync { [self] in close() }
    }

    private func take(_ samples: [Int16], arrival: ContinuousClock.Instant) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !done else { return }
        // The first sample was heard one frame before this frame arrived.
        let origin = originMs ?? max(0, (arrival - clockStart).totalMilliseconds - Int64(samples.count) / 16)
        originMs = origin
        recognize(samples)
        var start = 0
        while start < samples.count {
            let end = min(start + TurnDetector.frameSamples, samples.count)
            let event = detector.process(samples[start..<end])
            if detector.lastFrameVoiced { lastVoicedArrival = arrival }
            switch event {
            case .speechStarted?:
                // Finals from before the turn (a noise the recognizer took for words) are not its words.
                words.removeAll()
                events(.speechStarted(arrival: arrival))
            case .turnEnded(let startMs, let lastVoicedMs)?:
                let began = ContinuousClock.now
                if let recognizer {
                    do {
                        collect(try recognizer.endUtterance())
                    } catch {
                        fail(error)
                    }
                }
                let text = words.joined(separator: " ")
                words.removeAll()
                events(.turn(text: text, startMs: origin + startMs, endMs: origin + lastVoicedMs, endOfSpeech: lastVoicedArrival,
                             recognizing: ContinuousClock.now - began))
            case nil:
                break
            }
            start = end
        }
    }

    private func recognize(_ samples: [Int16]) {
        guard let recognizer else { return }
        do {
            collect(try recognizer.feed(samples))
        } catch {
            fail(error)
        }
    }

    private func collect(_ results: [SpeechResult]) {
        for result in results where result.isFinal {
            let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { words.append(text) }
        }
    }

    private func fail(_ error: any Error) {
        recognizer = nil
        events(.recognizerFailed(error))
    }

    private func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !done else { return }
        done = true
        _ = try? recognizer?.finish()
        recognizer = nil
    }
}
