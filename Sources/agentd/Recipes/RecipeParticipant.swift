import Agent
import AgentdCore
import BotKit
import Foundation
import Speech
import Synchronization

/// One bot of a running host recipe, with what drives its tracks (tone, pattern, speech, echo)
/// and its behaviours. It reports the ends it sees (connection lost, files over) to its runner.
final class RecipeParticipant: Sendable {
    enum End: Sendable {
        case connectionLost(String)
        case playbackFinished(BotEvent.PlaybackEnd)
        /// The voice agent left: a leave action ("agent"), or its responder program ended (why).
        case agentLeft(String)
        /// The voice agent's responder program failed (why).
        case agentFailed(String)
    }

    let display: String
    let bot: Bot
    let speaker: Speaker?
    let echo: EchoRelay?
    let captions: CaptionRelay?
    let agent: VoiceAgentDriver?
    let behaviours: RecipeBehaviours
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private init(display: String, bot: Bot, speaker: Speaker?, echo: EchoRelay?, captions: CaptionRelay?, agent: VoiceAgentDriver?,
                 behaviours: RecipeBehaviours) {
        self.captions = captions
        self.agent = agent
        self.display = display
        self.bot = bot
        self.speaker = speaker
        self.echo = echo
        self.behaviours = behaviours
    }

    /// Builds the media (files opened, espeak-ng found: both before joining), joins, and starts the feeds and behaviours once the media flows.
    /// - Throws: ``CommandFailure`` with the CLI contract's code.
    static func start(recipe: Recipe, display: String, server: String, room: String, ice: RoomJoinPatch,
                      environment: RecipeEnvironment, onEnd: @escaping @Sendable (End) -> Void) async throws -> RecipeParticipant {
        let tracks = try RecipeMedia(recipe: recipe)
        var synthesizer: SpeechSynthesizer?
        if case .speech(let voice, let wordsPerMinute) = recipe.audio {
            do {
                let executable = try SpeechSynthesizer.locate(environment.speechCommand, environment: environment.variables)
                synthesizer = SpeechSynthesizer(executable: executable, voice: voice, wordsPerMinute: wordsPerMinute)
            } catch {
                throw CommandFailure(.failure, "the speech source needs espeak-ng: \(error)", hint: "apt-get install espeak-ng")
            }
        }
        var makeRecognizer: SpeechRecognizerFactory?
        var makeAgentRecognizer: SpeechRecognizerFactory?
        if let agent = recipe.agent {
            do {
                makeAgentRecognizer = try agent.engine.checkedFactory()
            } catch {
                throw CommandFailure(.failure, "agent: the speech recognizer cannot start: \(error)",
                                     hint: "apt-get install libpocketsphinx3 pocketsphinx-en-us, or check agent.command")
            }
        }
        if let captions = recipe.captions {
            do {
                makeRecognizer = try captions.engine.checkedFactory()
            } catch {
                throw CommandFailure(.failure, "captions: the speech recognizer cannot start: \(error)",
                                     hint: "apt-get install libpocketsphinx3 pocketsphinx-en-us, or check captions.command")
            }
        }
        let media = try await tracks.botMedia(recipe)
        var configuration = BotConfiguration(
            server: server, room: room, display: display, token: recipe.token, pin: recipe.pin, create: recipe.create,
            iceAddresses: [], listens: recipe.listens)
        configuration.join = ice.applied(to: configuration.join)
        configuration.credentials = ice.applied(to: configuration.credentials)
        // One engine per bot (an engine joins a room once), on a loop of the process's group.
        let bot = Bot(configuration: configuration, engine: AgentEngine(group: environment.loops))
        var speaker: Speaker?
        if let track = tracks.audioTrack, let synthesizer {
            speaker = Speaker(track: track, synthesizer: synthesizer, log: environment.log)
        }
        var echo: EchoRelay?
        if case .echo(let delay) = recipe.audio, let track = tracks.audioTrack { echo = EchoRelay(track: track, delayMilliseconds: delay) }
        let sender = DataSender { text in try await bot.send(text: text) }
        let behaviours = RecipeBehaviours(
            recipe.behaviours, botName: display, sender: sender,
            say: { [speaker] text in speaker?.say(text) })
        var captions: CaptionRelay?
        if let settings = recipe.captions, let makeRecognizer {
            captions = CaptionRelay(makeRecognizer: makeRecognizer, partials: settings.partials, log: environment.log,
                                    sender: sender)
        }
        var agent: VoiceAgentDriver?
        if let settings = recipe.agent, let makeAgentRecognizer, let speaker {
            let driver = VoiceAgentDriver(settings: settings, makeRecognizer: makeAgentRecognizer, speaker: speaker, log: environment.log,
                                          leave: onEnd, sender: sender)
            // A responder program that cannot start fails the run before it joins.
            try driver.startResponder()
            agent = driver
        }
        let participant = RecipeParticipant(display: display, bot: bot, speaker: speaker, echo: echo, captions: captions, agent: agent,
                                            behaviours: behaviours)
        // Events are read from before the start, so no arrival or track is missed.
        participant.keep(participant.handleEvents(log: environment.log, onEnd: onEnd))
        do {
            try await bot.start(media)
        } catch {
            await participant.stop()
            throw JanusFailure.failure(for: error, server: server, room: room)
        }
        if case .tone(let frequency, let amplitude) = recipe.audio, let track = tracks.audioTrack {
            participant.keep(ToneFeed.start(into: track, frequency: frequency, amplitude: amplitude))
        }
        if let track = tracks.videoTrack, let square = tracks.square, case .pattern(_, _, let framesPerSecond, _, _) = recipe.video {
            participant.keep(PatternFeed.start(into: track, square: square, framesPerSecond: framesPerSecond))
        }
        if let echo { participant.keep(echo.startDraining()) }
        behaviours.started()
        return participant
    }

    /// Stops the feeds and behaviours and leaves the room. Idempotent.
    func stop() async {
        behaviours.stop()
        speaker?.stop()
        // The last utterances are finished and sent while the bot is still in the room.
        await captions?.stop()
        await agent?.stop()
        let running = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in running { task.cancel() }
        await bot.stop()
    }

    private func keep(_ task: Task<Void, Never>) {
        tasks.withLock { $0.append(task) }
    }

    private func handleEvents(log: @escaping @Sendable (String) -> Void, onEnd: @escaping @Sendable (End) -> Void) -> Task<Void, Never> {
        let bot = bot
        let echo = echo
        let captions = captions
        let agent = agent
        let behaviours = behaviours
        return Task {
            var displays: [String: String] = [:]
            for await event in bot.events {
                switch event {
                case .participantJoined(let id, let display):
                    displays[id] = display
                    agent?.joined(display)
                    // Behaviours may wait (a send retried while the data channel opens): never here.
                    Task { await behaviours.userJoined(display: display) }
                case .participantLeft(let id):
                    echo?.forget(id)
                    captions?.forget(id)
                    let display = displays.removeValue(forKey: id) ?? id
                    agent?.left(id, display: display)
                    Task { await behaviours.userLeft(display: display) }
                case .trackSubscribed(_, let display, let track):
                    try? echo?.attach(track)
                    do {
                        try captions?.attach(track, display: display)
                    } catch {
                        log("captions: cannot hear \(display): \(error)")
                    }
                    do {
                        try agent?.attach(track, display: display)
                    } catch {
                        log("agent: cannot hear \(display): \(error)")
                    }
                case .dataReceived(let from, .text(let text)):
                    agent?.received(text, from: from.flatMap { displays[$0] } ?? from ?? "")
                case .reconnecting(let attempt, let reason) where attempt == 1:
                    log("\(display): dropped (\(reason)); rejoining")
                case .reconnected(let id):
                    log("\(display): back in the room as \(id)")
                case .connectionLost(let reason):
                    onEnd(.connectionLost(reason))
                case .playbackFinished(let end):
                    onEnd(.playbackFinished(end))
                default:
                    break
                }
            }
        }
    }
}

/// What a running recipe may use from its surroundings; the CLI and the daemon supply their own.
struct RecipeEnvironment: Sendable {
    /// The process's transport loops, where every bot and recording of the recipe runs.
    var loops: LoopGroup
    /// Environment variables (for finding espeak-ng on `PATH`).
    var variables: [String: String]
    /// espeak-ng's name or path.
    var speechCommand: String
    /// One-line notes worth a log line (a text that could not be spoken, a recording's connection
    /// news). Never given a secret.
    var log: @Sendable (String) -> Void
    /// The daemon's output root: a recorder recipe's `out` must lie under it. nil for the CLI.
    var outputRoot: String?
    /// What the summary calls a stop through `run(until:)`: "signal" for the CLI, "request" for a DELETE.
    var stopName = "signal"

    init(loops: LoopGroup, variables: [String: String] = ProcessInfo.processInfo.environment, speechCommand: String = "espeak-ng",
         log: @escaping @Sendable (String) -> Void = { _ in }, outputRoot: String? = nil) {
        self.loops = loops
        self.variables = variables
        self.speechCommand = speechCommand
        self.log = log
        self.outputRoot = outputRoot
    }
}
