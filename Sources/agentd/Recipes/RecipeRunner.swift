import Agent
import AgentdCore
import BotKit
import Foundation

/// Runs one recipe in-process until it is stopped, its duration passes, its files end (a
/// playlist without loop) or the connection is lost: `agentd bot` and the daemon's
/// `POST /v1/bots` both use it.
///
/// ```swift
/// let recipe = try RecipeLibrary(directory: recipes).recipe(named: "tone")
/// let runner = RecipeRunner(recipe: recipe, overrides: .init(room: "demo"), ice: try SharedOptions.ice(arguments),
///                           environment: RecipeEnvironment(loops: context.loops))
/// let outcome = try await runner.run(until: { await stopRequested() })
/// print(outcome.line)
/// ```
///
/// It installs no signal handlers and prints nothing: the caller decides what stops it and
/// where the summary goes.
actor RecipeRunner {
    /// The recipe with the overrides applied.
    let recipe: Recipe
    /// The process's ICE settings (addresses, servers, credentials, policy), laid over each join.
    let ice: RoomJoinPatch
    let environment: RecipeEnvironment
    private let recordingLauncher: RecordingLauncher?
    private var participants: [RecipeParticipant] = []
    private var outcome: RecipeOutcome
    private var startedAt: ContinuousClock.Instant?
    private var ran = false

    private enum Stop: Sendable {
        case requested, duration, ended(RecipeParticipant.End)
    }

    /// - Parameter recordingLauncher: how the recorder recipe records; nil runs the in-process
    ///   ``RoomRecordingJob`` (tests pass their own).
    init(recipe: Recipe, overrides: RecipeOverrides = RecipeOverrides(), ice: RoomJoinPatch,
         environment: RecipeEnvironment, recordingLauncher: RecordingLauncher? = nil) {
        self.recipe = overrides.applied(to: recipe)
        self.ice = ice
        self.environment = environment
        self.recordingLauncher = recordingLauncher
        outcome = RecipeOutcome(recipe: recipe.name, room: self.recipe.room ?? "")
    }

    /// Joins, runs and leaves; once per runner. `stop` returns when the run should end (a signal, a DELETE); it is
    /// cancelled when the run ends for another reason, and should then return.
    /// - Returns: what the run did.
    /// - Throws: ``CommandFailure`` with the CLI contract's code: 2 for a missing server or room
    ///   and unreadable files (before joining), 3 refused, 4 connection failed or lost, 1 other.
    func run(until stop: @escaping @Sendable () async -> Void) async throws -> RecipeOutcome {
        guard !ran else { throw CommandFailure(.failure, "recipe \(recipe.name) already ran on this runner", hint: "make a new RecipeRunner") }
        ran = true
        guard let server = recipe.server else {
            throw CommandFailure(.usage, "recipe \(recipe.name) names no server", hint: "give --server or \"server\" in the recipe")
        }
        guard let room = recipe.room else {
            throw CommandFailure(.usage, "recipe \(recipe.name) names no room", hint: "give --room or \"room\" in the recipe")
        }
        if recipe.role == .audience { return try await record(server: server, room: room, until: stop) }

        let (stops, stopContinuation) = AsyncStream<Stop>.makeStream()
        let finishedPlayback = Shared(0)
        let count = recipe.participants
        let onEnd: @Sendable (RecipeParticipant.End) -> Void = { end in
            switch end {
            case .connectionLost, .agentLeft, .agentFailed: stopContinuation.yield(.ended(end))
            case .playbackFinished:
                // Every participant plays the same files: the run ends when all of them are done.
                let done = finishedPlayback.withLock { finished in
                    finished += 1
                    return finished == count
                }
                if done { stopContinuation.yield(.ended(end)) }
            }
        }
        // A stop (a signal, a DELETE, the daemon's shutdown) counts from the start: while the
        // participants start (files opening, joins) it cancels the start, and the run ends with
        // what had started, instead of waiting for a file or a join that may never come back.
        let stopRequested = Shared(false)
        let startup = Task { try await self.startParticipants(server: server, room: room, onEnd: onEnd) }
        let stopWatch = Task {
            await stop()
            guard !Task.isCancelled else { return }
            stopRequested.withLock { $0 = true }
            startup.cancel()
            stopContinuation.yield(.requested)
        }
        do {
            try await startup.value
        } catch {
            await leave()
            if stopRequested.withLock({ $0 }) {
                stopWatch.cancel()
                outcome.stoppedBy = environment.stopName
                await refresh()
                return outcome
            }
            stopWatch.cancel()
            throw JanusFailure.failure(for: error, server: server, room: room)
        }
        startedAt = .now
        let waiters = [
            stopWatch,
            Task { [duration = recipe.duration] in
                guard let duration else { return }
                do { try await Task.sleep(for: .seconds(saturating: duration)) } catch { return }
                stopContinuation.yield(.duration)
            },
        ]
        var reason = Stop.requested
        for await first in stops {
            reason = first
            break
        }
        for waiter in waiters { waiter.cancel() }
        stopContinuation.finish()
        switch reason {
        case .requested: outcome.stoppedBy = environment.stopName
        case .duration: outcome.stoppedBy = "duration"
        case .ended(.playbackFinished(.readError(let why))): outcome.stoppedBy = "a read error (\(why))"
        case .ended(.playbackFinished): outcome.stoppedBy = "end of files"
        case .ended(.connectionLost): outcome.stoppedBy = "connection lost"
        case .ended(.agentLeft(let why)), .ended(.agentFailed(let why)): outcome.stoppedBy = why
        }
        await refresh()
        await leave()
        await refresh()
        if case .ended(.connectionLost(let why)) = reason {
            throw CommandFailure(.connectionFailed, "recipe \(recipe.name) lost its connection to \(room): \(why)")
        }
        if case .ended(.agentFailed(let why)) = reason {
            throw CommandFailure(.failure, "recipe \(recipe.name): \(why)", hint: "its stderr is above")
        }
        return outcome
    }

    /// Starts every participant in turn; stops between them once cancelled.
    private func startParticipants(server: String, room: String,
                                   onEnd: @escaping @Sendable (RecipeParticipant.End) -> Void) async throws {
        let count = recipe.participants
        for index in 1...count {
            try Task.checkCancellation()
            let display = count == 1 ? recipe.display : "\(recipe.display)-\(index)"
            participants.append(try await RecipeParticipant.start(
                recipe: recipe, display: display, server: server, room: room, ice: ice,
                environment: environment, onEnd: onEnd))
        }
    }

    /// What the run has done so far (or did, once it ended).
    func progress() async -> RecipeOutcome {
        await refresh()
        return outcome
    }

    private func record(server: String, room: String, until stop: @escaping @Sendable () async -> Void) async throws -> RecipeOutcome {
        let request = try RecipeRecording.request(for: recipe, server: server, room: room, outputRoot: environment.outputRoot)
        let launch = recordingLauncher ?? RecipeRecording.roomRecordingJob(loops: environment.loops, say: environment.log)
        startedAt = .now
        outcome.participants = 1
        let result = try await launch(request, ice, stop)
        outcome.recording = result.summary
        outcome.stoppedBy = result.stoppedBy
        await refresh()
        return outcome
    }

    private func leave() async {
        for participant in participants { await participant.stop() }
    }

    /// Reads every participant's counters into ``outcome``.
    private func refresh() async {
        if let startedAt {
            let (seconds, attoseconds) = (ContinuousClock.now - startedAt).components
            outcome.seconds = Double(seconds) + Double(attoseconds) / 1e18
        }
        guard recipe.role == .host else { return }
        var next = outcome
        next.participants = participants.count
        (next.packetsSent, next.bytesSent, next.framesPlayed, next.passes) = (0, 0, 0, 0)
        (next.messagesSent, next.greetings, next.announcements, next.spoken, next.speechFailures) = (0, 0, 0, 0, 0)
        (next.echoedFrames, next.echoedTracks) = (0, 0)
        (next.captionsFinal, next.captionsPartial, next.captionFramesDropped) = (0, 0, 0)
        next.agent = nil
        next.events = EventBufferCounts()
        for participant in participants {
            let sent = await participant.bot.sendStatistics()
            next.packetsSent += sent.values.reduce(0) { $0 + $1.packets }
            next.bytesSent += sent.values.reduce(0) { $0 + $1.bytes }
            next.events = next.events + (await participant.bot.eventCounts())
            let progress = await participant.bot.playbackProgress()
            next.framesPlayed += progress.frames
            next.passes = max(next.passes, progress.passes)
            let behaviours = participant.behaviours.counters
            next.messagesSent += behaviours.messagesSent
            next.greetings += behaviours.greetings
            next.announcements += behaviours.announcements
            if let speaker = participant.speaker?.counters {
                next.spoken += speaker.spoken
                next.speechFailures += speaker.failed
            }
            if let echo = participant.echo?.statistics {
                next.echoedFrames += echo.frames
                next.echoedTracks += echo.tracks
            }
            if let agent = participant.agent?.counters { next.agent = agent }
            if let captions = participant.captions?.counters {
                next.captionsFinal += captions.finals
                next.captionsPartial += captions.partials
                next.captionFramesDropped += captions.framesDropped
            }
        }
        outcome = next
    }
}
