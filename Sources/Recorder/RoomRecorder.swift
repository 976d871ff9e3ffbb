import Agent
import Dispatch
import Foundation
import Speech
import Synchronization

/// Turns a stream of ``RoomEvent``s into a recording directory (ARCHITECTURE.md, "Recording
/// directory"): per participant `<name>.webm`, `<name>.wav`, `<name>.opus`; for the room
/// `mix.wav` and `data.jsonl`; and manifest.json, written at start, refreshed while recording
/// and final at stop.
///
///     network thread ── submit(event) ──▶ bounded count ──▶ serial writer queue ──▶ ParticipantRecording ─▶ files
///                        (never blocks;      (drops counted,     (owns every writer,     RoomMixer ─▶ mix.wav
///                         O(1))               never silent)       the manifest timer)     DataMessageLog ─▶ data.jsonl
///
/// **Threads.** ``submit(_:)`` only counts and enqueues onto the recorder's own serial queue, so
/// the network thread never waits for a disk. The queue is bounded by ``queueCapacity`` events
/// waiting: a media, data or statistics event beyond it is dropped and counted (manifest
/// `events_dropped`). Joins, leaves and track changes are never dropped (they are few and the
/// files depend on them).
///
/// **Time.** Media is placed by the frames' mapped wall times and RTP timestamps, never by when
/// the recorder happened to process them, so events may be fed faster than real time. t=0 is
/// `startedAt`.
///
/// **Reconnects.** ``RoomEvent/connectionState(_:at:)`` marks the recorder's own outages: from
/// `reconnecting` to `connected` is a gap, listed in the manifest's top-level `gaps`. Everything
/// goes on in the same directory on one timeline: WAVs hold silence across the gap, WebMs go on
/// with block times jumping over it (video from the next keyframe). Continuing one file keeps
/// the contract's one `<name>.webm` per participant, and a player shows the gap as a pause; a
/// new numbered file would read as a rejoin, which `-2` means elsewhere. Someone the drop took
/// away who comes back with the same display name keeps their name and files
/// (``ReconnectTimeline``). A connection given up or refused ends the recording as `failed`,
/// with the reason in the manifest's `error` and ``connectionError``.
///
/// **Continuing** (`continuing: true`, ``RecordingContinuation``): a directory that holds a
/// recording of the room (its recorder died) is continued as its next part: t=0 stays the
/// earlier `started_at` and this run starts at ``originMs``; every file is a new part, the
/// earlier names stay their participants', and manifest.json is the earlier one with this run
/// merged in and a `continued` gap.
///
/// **Errors.** A failing file ends just that file, with its error in the manifest; the first
/// such error is kept as ``outputError`` (the CLI's exit 5). A manifest that cannot be written
/// is an output error too.
public final class RoomRecorder: @unchecked Sendable {
    // @unchecked Sendable: every `var` below is touched only on `queue` (checked with
    // dispatchPrecondition in `handle` and `refreshManifest`); the cross-thread state is the
    // atomics and the `published` mutex.
    public let directory: RecordingDirectory
    public let formats: RecordingFormats
    /// The recording's t=0: this run's start, or a continued recording's `started_at`.
    public let startedAt: Date
    /// Where this run starts on the timeline: 0, or a continued recording's ms from t=0.
    public let originMs: Int64
    /// The earlier run this one continues, if it does.
    public let continuation: RecordingContinuation?
    public let queueCapacity: Int
    /// `--segment`: every file cut into parts on the timeline; nil: one file each.
    public let segments: RecordingSegments?

    let queue: DispatchQueue
    private let waiting = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    let accepting = Atomic<Bool>(true)
    let published = Mutex(RoomRecorderProgress())
    private let startNanoseconds: Int64

    var manifest: RecordingManifest
    let manifestWriter: ManifestWriter
    private var names = NameAllocator()
    /// A continued recording's earlier participants not back yet: whoever joins with one of their
    /// ids takes their name (and so their entry in the manifest).
    private var earlierNames: [(ids: Set<String>, name: String)] = []
    /// The part numbers this run's files start at (all 1 unless continuing).
    let partNumbers: RecordingPartNumbers
    /// data.jsonl, or a continued recording's part of it.
    let dataFileName: String
    var recordings: [ParticipantRecording] = []
    private var present: [String: ParticipantRecording] = [:]
    /// Names by participant id, kept after they leave, for data messages that arrive late.
    private var knownNames: [String: String] = [:]
    var mixer: RoomMixer?
    var mixError: String?
    var dataLog: DataMessageLog?
    /// room.webm (format composite), on its own queue.
    var compositor: RoomCompositor?
    /// transcript.jsonl and captions.vtt (format transcript).
    var transcriber: RoomTranscriber?
    var dataError: String?
    private var timer: DispatchSourceTimer?
    var furthestMs: Int64 = 0
    var finalManifest: RecordingManifest?
    var reconnects = ReconnectTimeline()
    /// When the room last became empty of publishers (ms from t=0): 0 at the start, nil while
    /// anyone is present. An idle timeout counts from here.
    private var emptySinceMs: Int64? = 0
    private let lostConnection = Mutex<String?>(nil)
    /// Asks a participant's video sender for a keyframe (a segment cut waits for one); set by
    /// whoever joined the room (``setKeyframeRequester(_:)``). Touched on `queue` only.
    private var keyframeRequester: (@Sendable (String) -> Void)?

    /// Creates the directory and writes the first manifest (state `recording`).
    ///
    /// - Parameters:
    ///   - queueCapacity: events that may wait for the writer before media events are dropped.
    ///   - manifestRefresh: how often manifest.json is rewritten while recording (≤ 5 s).
    ///   - ice: the join's ICE settings, for the manifest's `connection` (the selected pair comes
    ///     with ``RoomEvent/iceSelectedPair(_:at:)``).
    ///   - segments: cut every file into numbered parts (`--segment`).
    ///   - composite: room.webm's size, rate and layout, when `formats` has `composite`.
    ///   - recognizer: makes each participant's speech recognizer, when `formats` has `transcript`.
    ///   - startedAt: when this run starts: the recording's t=0, unless it continues one.
    ///   - continuing: continue a recording of `room` in the directory as its next part (see the
    ///     type's notes); a missing or empty directory gets a new recording.
    ///   - manifestGate: asked before each manifest write; false keeps it from the disk (a worker
    ///     whose lease on the job lapsed or was fenced).
    /// - Throws: ``RoomRecorderError/continuation(_:)`` (nothing in the directory touched) when
    ///   the directory cannot be continued.
    public init(directory: RecordingDirectory, room: String, server: String, formats: RecordingFormats = .default,
                ice: ICEConfiguration = ICEConfiguration(), startedAt: Date = Date(), queueCapacity: Int = 8192,
                manifestRefresh: Duration = .seconds(2), segments: RecordingSegments? = nil,
                composite: CompositeSettings = CompositeSettings(),
                recognizer: @escaping SpeechRecognizerFactory = PocketSphinxRecognizer.factory,
                continuing: Bool = false, manifestGate: (@Sendable () -> Bool)? = nil) throws(RoomRecorderError) {
        let continuation = try Self.claim(directory, room: room, startingAt: startedAt, continuing: continuing)
        self.directory = directory
        self.formats = formats
        self.segments = segments
        self.startedAt = continuation?.startedAt ?? startedAt
        self.continuation = continuation
        originMs = continuation?.originMs ?? 0
        self.queueCapacity = max(1, queueCapacity)
        startNanoseconds = Int64((self.startedAt.timeIntervalSince1970 * 1_000_000_000).rounded())
        queue = DispatchQueue(label: "agentd.recorder.\(room)", qos: .utility)
        partNumbers = continuation?.partNumbers ?? RecordingPartNumbers()
        dataFileName = RecordingSegments.partPath("data.jsonl", number: partNumbers.first(for: "data.jsonl"))
        for participant in continuation?.earlier.participants ?? [] {
            names.reserve(participant.name)
            earlierNames.append((Set(participant.ids + [participant.id]), participant.name))
        }
        furthestMs = originMs
        emptySinceMs = originMs
        manifest = RecordingManifest(room: room, server: server, startedAt: self.startedAt, formats: formats.names)
        manifest.eventsDropped = 0
        manifest.connection = RecordingManifest.Connection(ice: ice)
        manifestWriter = ManifestWriter(directory: directory.path, refreshInterval: manifestRefresh, gate: manifestGate)
        if formats.contains(.composite) { startCompositor(composite) }
        if formats.contains(.transcript) {
            transcriber = RoomTranscriber(directory: directory.path, recognizer: recognizer,
                                          partNumber: max(partNumbers.first(for: TranscriptLog.jsonLinesName),
                                                          partNumbers.first(for: TranscriptLog.captionsName)),
                                          startMs: originMs,
                                          reportError: { [weak self] reason in self?.noteOutputError(.file(reason)) })
        }
        if formats.contains(.mix) || compositor != nil {
            do {
                mixer = try RoomMixer(output: formats.contains(.mix)
                                          ? TimelineWAVWriter(path: directory.filePath("mix.wav"), segmentSamples: segments?.lengthSamples,
                                                              startSample: originMs * 48, firstPart: partNumbers.first(for: "mix.wav")) : nil,
                                      blockSink: compositeMixSink, startSample: originMs * 48)
            } catch {
                mixError = "\(error)"
                noteOutputError(.file("mix.wav: \(error)"))
            }
        }
        if formats.contains(.data) {
            do {
                dataLog = try DataMessageLog(path: directory.filePath(dataFileName))
            } catch {
                dataError = "\(error)"
                noteOutputError(.file("\(dataFileName): \(error)"))
            }
        }
        do {
            try manifestWriter.write(buildManifest())
        } catch {
            throw .manifest(error.description)
        }
        published.withLock {
            $0.emptySinceMs = originMs
            $0.mediaMs = originMs
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        timer.setEventHandler { [weak self] in self?.refreshManifest(force: false) }
        timer.resume()
        self.timer = timer
    }

    deinit {
        timer?.cancel()
    }

    // MARK: Producer side (any thread)

    /// Hands an event to the writer queue without waiting. Media, data and statistics events are
    /// dropped (and counted) when ``queueCapacity`` events are already waiting; all but statistics
    /// after ``endIntake()`` or stop.
    public func submit(_ event: RoomEvent) {
        // Statistics still count after the intake ended: the final figures of a stopping
        // audience cover every packet it received.
        guard accepting.load(ordering: .acquiring) || Self.isStatistics(event) else {
            // The source leaving (`disconnected`) after the recording ended is not a loss.
            if case .connectionState = event { return }
            dropped.add(1, ordering: .relaxed)
            return
        }
        let previous = waiting.add(1, ordering: .relaxed).oldValue
        if previous >= queueCapacity, Self.isDroppable(event) {
            waiting.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        queue.async { [self] in
            waiting.subtract(1, ordering: .relaxed)
            handle(event)
        }
    }

    private static func isStatistics(_ event: RoomEvent) -> Bool {
        if case .statistics = event { true } else { false }
    }

    private static func isDroppable(_ event: RoomEvent) -> Bool {
        switch event {
        case .frame, .data, .statistics: true
        case .participantJoined, .participantLeft, .trackAdded, .trackRemoved, .connectionState, .iceSelectedPair: false
        }
    }

    /// Where segment cuts ask for keyframes: `request(participantID)` sends a PLI (e.g.
    /// ``Channel/requestKeyframe(participantID:kind:)``). Without one, a cut waits for the
    /// sender's own next keyframe.
    public func setKeyframeRequester(_ request: @escaping @Sendable (String) -> Void) {
        queue.async { [self] in keyframeRequester = request }
    }

    /// Events dropped so far.
    public var eventsDropped: Int64 { Int64(dropped.load(ordering: .relaxed)) }

    public var progress: RoomRecorderProgress {
        var snapshot = published.withLock { $0 }
        snapshot.eventsDropped = eventsDropped
        snapshot.eventsQueued = waiting.load(ordering: .relaxed)
        return snapshot
    }

    /// The first output error, if any (CLI exit 5).
    public var outputError: RoomRecorderError? { published.withLock { $0.outputError } }

    /// Why the connection to the room ended for good (retries given up, or refused), if it did.
    public var connectionError: String? { lostConnection.withLock { $0 } }

    /// Stops accepting events, writes everything queued before, finishes every file (WAVs padded
    /// to the recording's end) and writes the final manifest. Blocks until done; idempotent.
    ///
    /// - Parameter stoppedBy: what ended the recording, for the manifest's `stopped_by`.
    @discardableResult
    public func stopAndWait(endedAt: Date, stoppedBy: String? = nil) -> RecordingManifest {
        accepting.store(false, ordering: .releasing)
        return queue.sync { finish(endedAt: endedAt, stoppedBy: stoppedBy) }
    }

    /// Stops taking events, while the sources are still being shut down; what was submitted
    /// before is still written. ``stop(endedAt:)`` then finishes the files.
    public func endIntake() {
        accepting.store(false, ordering: .releasing)
    }

    /// ``stopAndWait(endedAt:stoppedBy:)`` without blocking the caller's thread.
    @discardableResult
    public func stop(endedAt: Date, stoppedBy: String? = nil) async -> RecordingManifest {
        accepting.store(false, ordering: .releasing)
        return await withCheckedContinuation { continuation in
            queue.async { [self] in continuation.resume(returning: finish(endedAt: endedAt, stoppedBy: stoppedBy)) }
        }
    }

    /// Returns once every event submitted before it is written (a replay waits so, rather than
    /// fill the queue past its capacity).
    public func drained() async {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume() }
        }
    }

    // MARK: Writer queue

    /// Test hooks: hold and release the writer queue, to fill the bounded queue deterministically.
    func suspendWriter() { queue.suspend() }
    func resumeWriter() { queue.resume() }

    private func ms(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince(startedAt) * 1000).rounded())
    }

    private func ms(nanoseconds: Int64) -> Int64 {
        let offset = nanoseconds - startNanoseconds
        return offset >= 0 ? offset / 1_000_000 : -((-offset + 999_999) / 1_000_000)
    }

    private func handle(_ event: RoomEvent) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard finalManifest == nil else { return }
        switch event {
        case .participantJoined(let id, let display, let at):
            join(id: id, display: display, atMs: max(originMs, ms(at)))
        case .trackAdded(let participantID, let kind, let codec):
            if present[participantID] == nil, knownNames[participantID] != nil { break }
            recording(for: participantID).trackAdded(kind: kind, codec: codec)
        case .trackRemoved:
            break  // frames simply stop; the file ends when they leave or the recording stops
        case .frame(let frame):
            let frameMs = ms(nanoseconds: frame.wallTimeNanoseconds)
            furthestMs = max(furthestMs, frameMs)
            // Frames still in flight after a leave belong to nobody: a rejoin is announced.
            if present[frame.participantID] == nil, knownNames[frame.participantID] != nil { break }
            let recording = recording(for: frame.participantID)
            let blocks = recording.handle(frame, ms: frameMs)
            for block in blocks { mix(block.pcm, at: block.sample, from: recording.name) }
            if !blocks.isEmpty { transcriber?.add(blocks, from: recording.name) }
            compositor?.add(frame, atMs: recording.placedMs, audio: blocks, from: recording.name)
        case .data(let participantID, let payload, let at):
            log(payload, from: participantID.flatMap { knownNames[$0] } ?? "unknown", atMs: ms(at))
        case .participantLeft(let id, let at):
            guard let recording = present.removeValue(forKey: id) else { break }
            if reconnects.isOpen {
                // Gone when we got back: maybe only because of the outage (see ReconnectTimeline).
                recording.markLost(atMs: max(recording.joinedMs, ms(at)))
                reconnects.lose(recording, display: recording.display)
            } else {
                recording.leave(atMs: max(recording.joinedMs, ms(at)))
            }
            if let mixer, mixError == nil {
                do { try mixer.leave(recording.name) } catch { failMix(error) }
            }
            compositor?.leave(recording.name, atMs: max(recording.joinedMs, ms(at)))
            transcriber?.leave(recording.name)
            if present.isEmpty { emptySinceMs = max(originMs, ms(at)) }
            publishCounts()
        case .statistics(let participantID, let kind, let statistics):
            present[participantID]?.update(statistics, kind: kind)
        case .connectionState(let state, let at):
            connectionChanged(state, atMs: max(originMs, ms(at)))
        case .iceSelectedPair(let pair, let at):
            manifest.connection?.selectedPair = RecordingManifest.SelectedPair(pair, atMs: max(originMs, ms(at)))
            manifest.connection?.pairsSelected += 1
        }
    }

    private func connectionChanged(_ state: ConnectionState, atMs: Int64) {
        switch state {
        case .connecting:
            break
        case .reconnecting(let attempt):
            // Media after the gap comes from new streams: placed again by wall time.
            if reconnects.reconnecting(attempt: attempt, atMs: atMs) {
                for recording in present.values { recording.suspend() }
            }
            publishCounts()
        case .connected:
            if reconnects.isOpen, emptySinceMs != nil { emptySinceMs = atMs }
            reconnects.close(atMs: atMs)
            publishCounts()
        case .disconnected(let reason):
            reconnects.close(atMs: atMs)
            let text: String? = switch reason {
            case .gaveUp(let why): "connection lost: \(why)"
            case .refused(let why): "refused: \(why)"
            case .left, .roomDestroyed: nil
            }
            if let text { lostConnection.withLock { if $0 == nil { $0 = text } } }
        }
    }

    @discardableResult
    private func join(id: String, display: String, atMs joinedMs: Int64) -> ParticipantRecording {
        if let existing = present[id] { return existing }
        let (back, expired) = reconnects.reclaim(display: display, atMs: joinedMs)
        for recording in expired { recording.leave(atMs: recording.leftMs ?? joinedMs) }
        if let back {
            back.resume(id: id)
            present[id] = back
            knownNames[id] = back.name
            mixer?.join(back.name, atSample: joinedMs * 48)
            compositor?.join(back.name, display: back.display, atMs: joinedMs)
            publishCounts()
            return back
        }
        let name = takeEarlierName(id: id) ?? names.allocate(display: display)
        let recording = ParticipantRecording(
            id: id, display: display, name: name, joinedMs: joinedMs, directory: directory, formats: formats,
            segments: segments, wantKeyframe: { [weak self] id in self?.keyframeRequester?(id) },
            originMs: originMs, parts: partNumbers,
            reportError: { [weak self] reason in self?.noteOutputError(.file(reason)) })
        recordings.append(recording)
        compositor?.join(name, display: display, atMs: joinedMs)
        present[id] = recording
        knownNames[id] = name
        publishCounts()
        return recording
    }

    /// A continued recording's earlier participant with `id` is back: their name, once.
    private func takeEarlierName(id: String) -> String? {
        guard let index = earlierNames.firstIndex(where: { $0.ids.contains(id) }) else { return nil }
        return earlierNames.remove(at: index).name
    }

    /// The participant's current recording; one that was never announced (nor seen before) joins
    /// now, named by id.
    private func recording(for id: String) -> ParticipantRecording {
        present[id] ?? join(id: id, display: id, atMs: max(0, furthestMs))
    }

    private func mix(_ pcm: [Int16], at sample: Int64, from name: String) {
        guard let mixer, mixError == nil else { return }
        do { try mixer.push(pcm, atSample: sample, from: name) } catch { failMix(error) }
    }

    private func failMix(_ error: Error) {
        guard mixError == nil else { return }
        mixError = "\(error)"
        noteOutputError(.file("mix.wav: \(error)"))
    }

    private func log(_ payload: DataChannelMessage.Payload, from: String, atMs: Int64) {
        guard let dataLog, dataError == nil else { return }
        do {
            switch payload {
            case .text(let text): try dataLog.append(tMs: atMs, from: from, text: text)
            case .binary(let bytes): try dataLog.append(tMs: atMs, from: from, binary: bytes)
            }
        } catch {
            dataError = "\(error)"
            try? dataLog.close()
            noteOutputError(.file("\(dataFileName): \(error)"))
        }
    }

    func noteOutputError(_ error: RoomRecorderError) {
        published.withLock { if $0.outputError == nil { $0.outputError = error } }
    }

    func publishCounts() {
        if !present.isEmpty { emptySinceMs = nil }
        // During our own outage nobody can tell who is there: the idle clock stops, and starts
        // again from the reconnection if the room is empty then.
        let emptySince = reconnects.isOpen ? nil : emptySinceMs
        let presentCount = present.count, total = recordings.count, media = furthestMs
        published.withLock {
            $0.participantsPresent = presentCount
            $0.participantsRecorded = total
            $0.mediaMs = media
            $0.emptySinceMs = emptySince
        }
    }

    func finish(endedAt: Date, stoppedBy: String?) -> RecordingManifest {
        dispatchPrecondition(condition: .onQueue(queue))
        if let finalManifest { return finalManifest }
        timer?.cancel()
        timer = nil
        // Every WAV ends at the same sample: the recording's end. Media that ran past it (frames
        // in flight when the stop came) is cut, so the files last as long as the recording did.
        let endSample = max(originMs, ms(endedAt)) * 48
        reconnects.close(atMs: endSample / 48)
        for recording in recordings { recording.finish(atSample: endSample) }
        if let mixer, mixError == nil {
            do { try mixer.finish(atSample: endSample) } catch { failMix(error) }
        }
        compositor?.finish(atMs: endSample / 48)
        transcriber?.finish()
        if let dataLog, dataError == nil {
            do { try dataLog.close() } catch {
                dataError = "\(error)"
                noteOutputError(.file("\(dataFileName): \(error)"))
            }
        }
        manifest.endedAt = endedAt
        manifest.durationMs = endSample / 48
        manifest.stoppedBy = stoppedBy
        manifest.state = outputError == nil && connectionError == nil ? .finished : .failed
        var result = buildManifest()
        do {
            try manifestWriter.writeFinal(result)
        } catch {
            noteOutputError(.manifest(error.description))
            result.state = .failed
        }
        publishCounts()
        publishBytes()
        finalManifest = result
        return result
    }
}
