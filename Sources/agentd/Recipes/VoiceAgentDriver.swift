import Agent
import AgentdCore
import Foundation
import Speech
import Synchronization

/// The voice agent recipe (`agent` in a host recipe): it hears every remote participant through
/// a ``TurnListener`` of their own (turn detection, then recognition), hands each finished turn
/// to the responder (rules or a program), speaks the answers with the recipe's speech track and
/// sends its data messages. With barge-in, anyone who starts to speak while the bot talks makes
/// it stop at once (``Speaker/interrupt()``) and listen.
///
/// The first audio from each participant logs `agent: hearing <name>`. Each answered turn logs
/// its latency, from the end of the speaker's speech (when their last voiced frame arrived) to
/// the answer's first audio going to the track:
///
///     agent: alice: "what time is it" → "It is 8:15."; 934 ms from end of speech to first audio (turn end 520, recognizer 61)
final class VoiceAgentDriver: Sendable {
    struct Counters: Sendable, Equatable {
        /// Turns heard, and those the recognizer found words in.
        var turns = 0
        var turnsWithWords = 0
        var answers = 0
        var bargeIns = 0
        var framesDropped = 0
        var recognizerFailures = 0
        var sendFailures = 0
        /// End of speech to first answer audio, in ms, of the last 1000 answered turns.
        var latenciesMs: [Int] = []

        var medianLatencyMs: Int? {
            guard !latenciesMs.isEmpty else { return nil }
            return latenciesMs.sorted()[latenciesMs.count / 2]
        }
    }

    /// Frames that may wait per listener: 10 s of 20 ms frames.
    static let queueCapacity = 500

    /// The last turn with words, until its first answer is heard (for the latency).
    private struct PendingTurn: Sendable {
        var display: String
        var text: String
        var endOfSpeech: ContinuousClock.Instant
        var turnEnd: ContinuousClock.Instant
        var recognizing: Duration
    }

    private struct State: Sendable {
        var counters = Counters()
        var listeners: [String: TurnListener] = [:]
        var pending: PendingTurn?
        var responder: (any AgentResponder)?
        var leaving = false
    }

    private let settings: Recipe.VoiceAgent
    private let makeRecognizer: SpeechRecognizerFactory
    private let speaker: Speaker
    private let log: @Sendable (String) -> Void
    private let leave: @Sendable (RecipeParticipant.End) -> Void
    private let start = ContinuousClock.now
    private let state = Mutex(State())
    private let outbox: DataOutbox

    /// - Parameters:
    ///   - sender: sends the bot's data messages.
    ///   - leave: ends the run: ``RecipeParticipant/End/agentLeft`` for a leave action or a
    ///     responder that exited with status 0, ``RecipeParticipant/End/agentFailed`` for one that failed.
    init(settings: Recipe.VoiceAgent, makeRecognizer: @escaping SpeechRecognizerFactory, speaker: Speaker,
         log: @escaping @Sendable (String) -> Void, leave: @escaping @Sendable (RecipeParticipant.End) -> Void,
         sender: DataSender) {
        self.settings = settings
        self.makeRecognizer = makeRecognizer
        self.speaker = speaker
        self.log = log
        self.leave = leave
        outbox = DataOutbox(sender)
    }

    /// Starts the responder (a command responder's program is spawned here, before joining).
    func startResponder() throws {
        let responder: any AgentResponder
        switch settings.responder {
        case .rules(let rules, let fallback):
            responder = try RuleResponder(rules: rules, fallback: fallback) { [weak self] answer in self?.act(answer) }
        case .command(let executable, let arguments):
            do {
                responder = try CommandResponder(
                    executable: executable, arguments: arguments, answer: { [weak self] answer in self?.act(answer) },
                    exited: { [leave] status, why in leave(status == 0 ? .agentLeft(why) : .agentFailed(why)) }, log: log)
            } catch {
                throw CommandFailure(.failure, "agent: the responder \(executable) cannot start: \(error)", hint: "check agent.responder.command")
            }
        }
        state.withLock { $0.responder = responder }
    }

    var counters: Counters {
        var counters = state.withLock { state in
            var counters = state.counters
            counters.framesDropped += state.listeners.values.reduce(0) { $0 + $1.framesDropped }
            return counters
        }
        counters.sendFailures = outbox.failures
        return counters
    }

    /// Starts listening to `track` (audio only) of `display`.
    func attach(_ track: RemoteTrack, display: String) throws {
        guard track.kind == .audio else { return }
        var recognizer: (any SpeechRecognizer)?
        do {
            recognizer = try makeRecognizer()
        } catch {
            failed(display, error)
        }
        let listener = TurnListener(display: display, endOfTurnMs: settings.endOfTurnMs, capacity: Self.queueCapacity,
                                    recognizer: recognizer, clockStart: start) { [weak self] event in
            self?.handle(event, from: display)
        }
        let format = try RemoteAudioFormat(sampleRate: SpeechAudio.sampleRate, channels: 1, frameDuration: .milliseconds20)
        let heard = Shared(false)
        let sink = try RemoteAudioSink(format: format) { [listener, log] frame in
            guard let samples = frame.int16Samples else { return }
            if heard.withLock({ seen in defer { seen = true }; return !seen }) {
                log("agent: hearing \(display)")
            }
            listener.enqueue(samples, arrival: .now)
        }
        let previous = state.withLock { state in
            defer { state.listeners[track.participantID] = listener }
            state.counters.framesDropped += state.listeners[track.participantID]?.framesDropped ?? 0
            return state.listeners[track.participantID]
        }
        previous?.finish()
        track.add(sink)
    }

    func joined(_ display: String) { hear(.joined(name: display)) }

    /// `participantID` (`display`) left: their listener stops.
    func left(_ participantID: String, display: String) {
        state.withLock { state in
            let listener = state.listeners.removeValue(forKey: participantID)
            state.counters.framesDropped += listener?.framesDropped ?? 0
            return listener
        }?.finish()
        hear(.left(name: display))
    }

    func received(_ text: String, from display: String) { hear(.data(from: display, text: text)) }

    /// Stops listening and the responder, and sends what waits. Idempotent.
    func stop() async {
        let (listeners, responder) = state.withLock { state in
            defer {
                state.listeners.removeAll()
                state.responder = nil
            }
            return (Array(state.listeners.values), state.responder)
        }
        for listener in listeners { listener.finishAndWait() }
        await responder?.stop()
        await outbox.finish()
    }

    private func hear(_ event: AgentHeard) {
        state.withLock { $0.responder }?.hear(event)
    }

    private func handle(_ event: TurnListener.Event, from display: String) {
        switch event {
        case .speechStarted:
            guard settings.bargeIn, speaker.isBusy else { return }
            speaker.interrupt()
            state.withLock { state in
                state.counters.bargeIns += 1
                state.pending = nil
            }
            log("agent: \(display) spoke over the bot: it stopped talking")
            hear(.interrupted(by: display))
        case .turn(let text, let startMs, let endMs, let endOfSpeech, let recognizing):
            let words = !text.isEmpty
            state.withLock { state in
                state.counters.turns += 1
                if words {
                    state.counters.turnsWithWords += 1
                    state.pending = PendingTurn(display: display, text: text, endOfSpeech: endOfSpeech, turnEnd: .now, recognizing: recognizing)
                }
            }
            guard words else { return }
            log("agent: heard \(display): \"\(text.prefix(80))\" (\(startMs)-\(endMs) ms)")
            hear(.transcript(from: display, text: text, startMs: startMs, endMs: endMs))
        case .recognizerFailed(let error):
            failed(display, error)
        }
    }

    private func act(_ answer: ResponderAnswer) {
        state.withLock { $0.counters.answers += 1 }
        if let say = answer.say {
            let turn = state.withLock { state in
                defer { state.pending = nil }
                return state.pending
            }
            speaker.say(say) { [weak self] started in
                guard let self, let turn else { return }
                let latency = (started - turn.endOfSpeech).totalMilliseconds
                state.withLock { state in
                    if state.counters.latenciesMs.count == 1000 { state.counters.latenciesMs.removeFirst() }
                    state.counters.latenciesMs.append(Int(clamping: latency))
                }
                let turnEnd = (turn.turnEnd - turn.endOfSpeech).totalMilliseconds
                log("agent: \(turn.display): \"\(turn.text.prefix(80))\" → \"\(say.prefix(80))\"; \(latency) ms from end of speech "
                    + "to first audio (turn end \(turnEnd), recognizer \(turn.recognizing.totalMilliseconds))")
            }
        }
        if let send = answer.send { outbox.post(send) }
        if answer.leave {
            let first = state.withLock { state in
                defer { state.leaving = true }
                return !state.leaving
            }
            guard first else { return }
            // What it says before it leaves is heard first (for at most 30 s).
            Task { [speaker, leave] in
                let deadline = ContinuousClock.now + .seconds(30)
                try? await Task.sleep(for: .milliseconds(100))
                while speaker.isBusy && ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(50))
                }
                leave(.agentLeft("agent"))
            }
        }
    }

    private func failed(_ display: String, _ error: any Error) {
        state.withLock { $0.counters.recognizerFailures += 1 }
        log("agent: \(display)'s speech recognizer stopped: \(error)")
    }
}
