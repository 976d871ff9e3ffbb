import Agent
import AgentdCore
import Foundation
import Recorder
import Synchronization

/// One recording of one room, in process: joins as an unseen audience member on its own
/// ``AgentEngine`` channel (on a loop of the process's ``LoopGroup``), hands every room event to a ``RoomRecorder`` where it happens (frames
/// on the transport loop, no hop per frame), and ends on its duration, ``stop()``, an output
/// failure or the connection ending for good, finalizing every file.
///
/// The one recording path: `agentd record` runs one, the daemon runs one per recording job,
/// and a recorder bot may run one too.
///
///     let job = RoomRecordingJob(request: request, ice: try SharedOptions.ice(arguments), loops: context.loops, say: log)
///     let outcome = try await job.run()      // elsewhere: job.stop()
final class RoomRecordingJob: Sendable {
    enum Phase: Sendable {
        case idle, joining
        case recording(RoomRecorder)
        case finished(RoomRecorderProgress)
    }

    let request: RecordingRequest
    /// The process's ICE settings (`--ice-*` flags and their environment, or the daemon's
    /// config), laid over the request's join and credentials.
    let ice: RoomJoinPatch
    /// Where the job's engine takes its loop; the job never stops them.
    let loops: LoopGroup
    /// Receive counters (packets, bytes, loss, NACK, PLI) over every stream subscribed.
    let totals = ReceiveTotals()
    private let say: @Sendable (String) -> Void
    /// The manifest's `stopped_by` for a ``stop()``: "signal" for the CLI, "request" for the daemon.
    private let stopName: String
    private let stopRequest = StopRequest()
    private let phaseState = Mutex<Phase>(.idle)
    /// Where the channel's event counts come from: the channel while it lives, then its final figures.
    /// Where ``eventCounts`` comes from: the live channel while recording, then its final counts.
    /// Values, not a stored closure (a closure in a `Mutex` gains a thunk on every read: LAB.md).
    private enum EventCountsSource: Sendable {
        case none
        case live(Channel)
        case final(EventBufferCounts)
    }

    private let eventCountsSource = Mutex<EventCountsSource>(.none)

    /// - Parameters:
    ///   - stopName: what the manifest's `stopped_by` says after ``stop()``.
    ///   - say: where connection news goes (lost, back again): stderr for the CLI, the log for
    ///     the daemon. Never given a secret.
    init(request: RecordingRequest, ice: RoomJoinPatch, loops: LoopGroup, stopName: String = "request",
         say: @escaping @Sendable (String) -> Void) {
        self.request = request
        self.ice = ice
        self.loops = loops
        self.stopName = stopName
        self.say = say
    }

    var phase: Phase { phaseState.withLock { $0 } }

    /// What the channel's event stream coalesced or dropped (for /metrics).
    var eventCounts: EventBufferCounts {
        switch eventCountsSource.withLock({ $0 }) {
        case .none: EventBufferCounts()
        case .live(let channel): channel.eventCounts
        case .final(let counts): counts
        }
    }

    /// True from the join until the recording ends.
    var isRecording: Bool {
        if case .recording = phase { return true }
        return false
    }

    /// The recorder's figures so far (zeros before the join, the final ones after the end).
    var progress: RoomRecorderProgress {
        switch phase {
        case .idle, .joining: RoomRecorderProgress()
        case .recording(let recorder): recorder.progress
        case .finished(let progress): progress
        }
    }

    /// Asks the recording to end; ``run()`` then finalizes and returns. Idempotent, from any
    /// thread, at any time (during the join, the recording ends as soon as it started).
    func stop() {
        stopRequest.request()
    }

    /// Records until the end and finalizes every file.
    /// - Throws: before recording only: ``CommandFailure`` with exit 5 when the directory cannot be
    ///   written, and Janus's refusal (3) or unreachability (4) when the join fails; a directory
    ///   the failed join created is removed again, and a continued recording's directory is put
    ///   back as the earlier run left it (``RoomRecorder/abandon(endedAt:)``). A continued
    ///   recording (``RecordingRequest/existing``) has the earlier run's t=0; `duration` and
    ///   `max_duration` count from this run's start.
    func run() async throws(CommandFailure) -> RecordingOutcome {
        phaseState.withLock { $0 = .joining }
        try request.checkOutput()
        let join = ice.applied(to: request.join)
        let recorder: RoomRecorder
        do {
            recorder = try RoomRecorder(
                directory: request.directory, room: request.room, server: request.displayServer, formats: request.formats,
                ice: join.ice, startedAt: request.startedAt, segments: request.segments, composite: request.composite,
                continuing: request.continues, manifestGate: request.writeGate)
        } catch {
            request.removeUnusedOutput()
            phaseState.withLock { $0 = .finished(RoomRecorderProgress()) }
            throw CommandFailure(.outputFailed, error.description, hint: "choose another --out")
        }
        let capture: PacketCapture?
        do {
            capture = request.capture ? try PacketCapture(directory: request.directory.path) : nil
        } catch {
            _ = await recorder.abandon()
            request.removeUnusedOutput()
            phaseState.withLock { $0 = .finished(RoomRecorderProgress()) }
            throw CommandFailure(.outputFailed, error.description, hint: "choose another --out")
        }
        // The engine's shutdown below leaves its channel; the group's loop runs on for other jobs.
        let engine = AgentEngine(group: loops)
        let connection = ConnectionWatch(startedAt: request.startedAt, say: say)
        let totals = self.totals
        var options = ChannelOptions(
            roomEventSink: { event in
                recorder.submit(event)
                connection.note(event)
                totals.note(event)
                if case .participantJoined(let id, let display, _) = event { capture?.participant(id: id, display: display) }
            },
            packetTap: capture)

        // A notice comes from a participant of its own (created first, so it may create the room);
        // the recording ignores it.
        var announcer: RecorderAnnouncer?
        if let notice = request.notice {
            do {
                let started = try await RecorderAnnouncer.start(notice, request: request, ice: ice, engine: AgentEngine(group: loops))
                options.ignoredParticipantIDs.insert(started.publisherID)
                announcer = started
            } catch {
                await engine.shutdown()
                _ = await recorder.abandon()
                capture?.discard()
                request.removeUnusedOutput()
                phaseState.withLock { $0 = .finished(RoomRecorderProgress()) }
                throw error
            }
        }
        let channel: Channel
        do {
            channel = try await engine.join(join, credentials: ice.applied(to: request.credentials), options: options)
        } catch {
            await announcer?.leave()
            await engine.shutdown()
            _ = await recorder.abandon()
            capture?.discard()
            request.removeUnusedOutput()
            phaseState.withLock { $0 = .finished(RoomRecorderProgress()) }
            throw JanusFailure.failure(for: error, server: request.server, room: request.room)
        }
        // A segment cut waits for a keyframe; the recorder asks for it through the channel.
        recorder.setKeyframeRequester { [weak channel] participantID in
            Task { await channel?.requestKeyframe(participantID: participantID) }
        }
        phaseState.withLock { $0 = .recording(recorder) }
        eventCountsSource.withLock { $0 = .live(channel) }
        // The recorder takes every event from the raw sink; the channel's events are read only so
        // they do not pile up in its buffer (roster kept up to its ceiling) for the whole recording.
        let drain = Task { for await _ in channel.events {} }
        announcer?.start()

        let reason = await waitForEnd(recorder: recorder, connection: connection)
        // The recording ends now (a planned length ends exactly there, so no file gets a
        // millisecond-long last part); leaving the room takes a moment and is not part of it.
        let endedAt = plannedEnd(for: reason, durationStart: Self.durationStart(request, recorder)) ?? Date()
        recorder.endIntake()
        if let announcer, !(await announcer.finish(stoppedBy: reason.name(stoppedAs: stopName))) {
            say("agentd: could not tell the room in time that recording stopped")
        }
        await engine.leave(channel)
        await engine.shutdown()
        await drain.value
        let finalCounts = channel.eventCounts
        eventCountsSource.withLock { $0 = .final(finalCounts) }
        let manifest = await recorder.stop(endedAt: endedAt, stoppedBy: reason.name(stoppedAs: stopName))
        finishCapture(capture)
        if request.writeGate?() ?? true {
            await RecordingReportAtStop.write(manifest, in: request.directory.path, say: say)
        }
        let progress = recorder.progress
        phaseState.withLock { $0 = .finished(progress) }
        return RecordingOutcome(request: request, manifest: manifest, reason: reason, progress: progress, outputError: recorder.outputError)
    }

    /// Closes the capture's files; a failure is said, and the recording stands.
    private func finishCapture(_ capture: PacketCapture?) {
        guard let capture else { return }
        do {
            let written = try capture.finish()
            say("agentd: captured \(written.packets) packets to \(capture.directory)/\(CaptureDescription.dumpFileName)"
                + (written.dropped > 0 ? " (\(written.dropped) dropped)" : ""))
        } catch {
            say("agentd: \(error)")
        }
    }

    /// Where a recording that ran its `duration` or `max_duration` ends: at that length from t=0
    /// (the timer fires a few milliseconds late). Nil for every other end.
    private func plannedEnd(for reason: RecordingEndReason, durationStart: Date) -> Date? {
        let seconds: Double? = switch reason {
        case .duration: request.duration
        case .limit(.duration): request.limits.maxDuration
        default: nil
        }
        return seconds.map { min(Date(), durationStart.addingTimeInterval($0)) }
    }

    /// Where `duration` and `max_duration` count from: this run's start, or the recording's t=0
    /// when the request says so (a worker continuing a job keeps the job's planned end).
    private static func durationStart(_ request: RecordingRequest, _ recorder: RoomRecorder) -> Date {
        request.durationFromRecordingStart ? recorder.startedAt : request.startedAt
    }

    /// Whichever comes first: the duration, ``stop()``, a limit or the idle timeout
    /// (``RecordingLimits``), an output failure, or the connection ending for good.
    private func waitForEnd(recorder: RoomRecorder, connection: ConnectionWatch) async -> RecordingEndReason {
        let stopRequest = self.stopRequest
        let request = self.request
        return await withTaskGroup(of: RecordingEndReason.self) { group in
            group.addTask { _ = await stopRequest.wait(); return .stopped }
            group.addTask {
                for await reason in connection.lost { return .disconnected(reason) }
                // The stream ends without a reason when we leave: wait for the others.
                _ = await stopRequest.wait()
                return .stopped
            }
            // The recording's t=0 is when we started, before joining: count from there, so a
            // 10 s recording is 10 s long however long the join took.
            for (seconds, reason) in [(request.duration, RecordingEndReason.duration), (request.limits.maxDuration, .limit(.duration))] {
                guard let seconds else { continue }
                let remaining = max(0, seconds - Date().timeIntervalSince(Self.durationStart(request, recorder)))
                group.addTask {
                    try? await Task.sleep(for: .seconds(saturating: remaining))
                    return reason
                }
            }
            let limits = request.limits
            // The idle clock's `emptySinceMs` is on the recording's timeline, whose t=0 is an
            // earlier run's when this one continues it.
            let startedAt = recorder.startedAt
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    if recorder.outputError != nil { return .outputFailed }
                    let progress = recorder.progress
                    if let maxBytes = limits.maxBytes, progress.bytesWritten >= maxBytes { return .limit(.bytes) }
                    if let idleTimeout = limits.idleTimeout, let emptySinceMs = progress.emptySinceMs,
                        Date().timeIntervalSince(startedAt) - Double(emptySinceMs) / 1000 >= idleTimeout
                    {
                        return .idle
                    }
                }
                return .stopped
            }
            let first = await group.next() ?? .stopped
            group.cancelAll()
            return first
        }
    }
}
