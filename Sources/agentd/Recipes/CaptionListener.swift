import Dispatch
import Speech
import Synchronization

/// One participant's recognizer for ``CaptionRelay``, on a serial queue of its own: frames are
/// counted and queued by the track's sink (never waiting), decoded here, and the results handed
/// on with the time (on the relay's clock) of the first sample the recognizer heard.
///
/// A partial result equal to the one before is not handed on again.
final class CaptionListener: @unchecked Sendable {
    // @unchecked Sendable: everything but `waiting` is touched only on `queue`.

    private let queue: DispatchQueue
    private let waiting = Atomic<Int>(0)
    private let capacity: Int
    private let deliver: @Sendable (_ results: [SpeechResult], _ originMs: Int64) -> Void
    private var recognizer: (any SpeechRecognizer)?
    private var originMs: Int64 = 0
    private var lastPartial = ""
    private var done = false

    init(display: String, capacity: Int, deliver: @escaping @Sendable (_ results: [SpeechResult], _ originMs: Int64) -> Void) {
        queue = DispatchQueue(label: "agentd.captions.\(display)", qos: .utility)
        self.capacity = max(1, capacity)
        self.deliver = deliver
    }

    /// Queues 16 kHz samples that arrived at `ms`; false (dropped) when `capacity` frames wait.
    func enqueue(_ samples: [Int16], atMs ms: Int64, recognizer make: @escaping SpeechRecognizerFactory,
                 failed: @escaping @Sendable (any Error) -> Void) -> Bool {
        if waiting.add(1, ordering: .relaxed).oldValue >= capacity {
            waiting.subtract(1, ordering: .relaxed)
            return false
        }
        queue.async { [self] in
            waiting.subtract(1, ordering: .relaxed)
            feed(samples, atMs: ms, make: make, failed: failed)
        }
        return true
    }

    /// Ends the stream: the last utterance's final result is handed on.
    func finish() {
        queue.async { [self] in close() }
    }

    func finishAndWait() {
        queue.sync { [self] in close() }
    }

    private func feed(_ samples: [Int16], atMs ms: Int64, make: SpeechRecognizerFactory, failed: @Sendable (any Error) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !done else { return }
        do {
            let active: any SpeechRecognizer
            if let recognizer {
                active = recognizer
            } else {
                active = try make()
                recognizer = active
                // The first sample was heard one frame before this one arrived.
                originMs = ms - SpeechAudio.milliseconds(ofSample: Int64(samples.count))
            }
            hand(try active.feed(samples))
        } catch {
            done = true
            recognizer = nil
            failed(error)
        }
    }

    private func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !done else { return }
        done = true
        guard let recognizer else { return }
        self.recognizer = nil
        if let results = try? recognizer.finish() { hand(results) }
    }

    private func hand(_ results: [SpeechResult]) {
        let fresh = results.filter { result in
            if result.isFinal {
                lastPartial = ""
                return true
            }
            guard result.text != lastPartial else { return false }
            lastPartial = result.text
            return true
        }
        if !fresh.isEmpty { deliver(fresh, originMs) }
    }
}
