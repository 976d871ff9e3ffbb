import Agent
import AgentdCore
import Dispatch
import Foundation
import Speech
import Synchronization

/// The captions recipe (`captions` in a host recipe): each remote participant's audio, decoded
/// to 16 kHz, goes through a recognizer of their own, and what they said goes out as data
/// messages, in order:
///
///     {"type":"caption","from":"Alice","text":"turn on the","final":false,"t_ms":5230}
///     {"type":"caption","from":"Alice","text":"turn on the lights","final":true,"t_ms":5230}
///
/// `t_ms` is where the utterance began, in ms since the bot started listening (the same clock
/// for everyone, so captions of several people order by it).
///
/// **Threads.** Recognition is far too slow for a track's worker lane (pocketsphinx takes about
/// a fifth of a core per speaker), so each participant has a serial queue of their own; the
/// sink only counts and enqueues. At most ``queueCapacity`` frames (10 s) wait per participant;
/// beyond that they are dropped and counted. A recognizer that fails is reported once and that
/// participant is captioned no more; the others go on.
final class CaptionRelay: Sendable {
    struct Counters: Sendable, Equatable {
        var finals = 0
        var partials = 0
        var sendFailures = 0
        var framesDropped = 0
        var recognizerFailures = 0
    }

    static let queueCapacity = 500

    private let makeRecognizer: SpeechRecognizerFactory
    private let partials: Bool
    private let start = ContinuousClock.now
    private let outbox: DataOutbox
    private let listeners = Mutex<[String: CaptionListener]>([:])
    /// The counters, shared with the sending task.
    private final class Tally: Sendable {
        let counters = Mutex(Counters())
    }

    private let tally = Tally()
    private let log: @Sendable (String) -> Void

    init(makeRecognizer: @escaping SpeechRecognizerFactory, partials: Bool, log: @escaping @Sendable (String) -> Void,
         sender: DataSender) {
        self.makeRecognizer = makeRecognizer
        self.partials = partials
        self.log = log
        outbox = DataOutbox(sender)
    }

    var counters: Counters {
        var counters = tally.counters.withLock { $0 }
        counters.sendFailures = outbox.failures
        return counters
    }

    /// Starts captioning `track` (audio only) of `display`.
    func attach(_ track: RemoteTrack, display: String) throws {
        guard track.kind == .audio else { return }
        let id = track.participantID
        let listener = CaptionListener(display: display, capacity: Self.queueCapacity) { [weak self] results, originMs in
            self?.publish(results, from: display, originMs: originMs)
        }
        let format = try RemoteAudioFormat(sampleRate: SpeechAudio.sampleRate, channels: 1, frameDuration: .milliseconds20)
        let sink = try RemoteAudioSink(format: format) { [weak self, listener] frame in
            guard let self, let samples = frame.int16Samples else { return }
            if !listener.enqueue(samples, atMs: nowMs, recognizer: makeRecognizer, failed: { [weak self] error in self?.failed(display, error) }) {
                tally.counters.withLock { $0.framesDropped += 1 }
            }
        }
        listeners.withLock { $0[id]?.finish(); $0[id] = listener }
        track.add(sink)
    }

    /// `participantID` left: their last utterance is finished and sent.
    func forget(_ participantID: String) {
        listeners.withLock { $0.removeValue(forKey: participantID) }?.finish()
    }

    /// Finishes everyone's utterances, sends what is left and stops. Idempotent.
    func stop() async {
        let all = listeners.withLock { listeners in
            defer { listeners.removeAll() }
            return Array(listeners.values)
        }
        for listener in all { listener.finishAndWait() }
        await outbox.finish()
    }

    private var nowMs: Int64 { (ContinuousClock.now - start).totalMilliseconds }

    private func publish(_ results: [SpeechResult], from display: String, originMs: Int64) {
        for result in results where result.isFinal || partials {
            let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            let message = JSONValue.object([
                "type": .string("caption"), "from": .string(display), "text": .string(text), "final": .bool(result.isFinal),
                "t_ms": .integer(originMs + result.startMs),
            ])
            outbox.post(message.serialized())
            tally.counters.withLock { result.isFinal ? ($0.finals += 1) : ($0.partials += 1) }
        }
    }

    private func failed(_ display: String, _ error: any Error) {
        tally.counters.withLock { $0.recognizerFailures += 1 }
        log("captions: \(display)'s speech recognizer stopped: \(error)")
    }
}
