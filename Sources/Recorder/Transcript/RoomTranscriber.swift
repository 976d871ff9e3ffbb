import Agent
import Dispatch
import Speech
import Synchronization

/// `--formats transcript`: every participant's speech to text, written to `transcript.jsonl`
/// and `captions.vtt` (``TranscriptLog``) on the recording's timeline.
///
///     recorder's writer queue ── decoded audio blocks ──▶ bounded count ──▶ serial transcript queue ──▶ ParticipantTranscriber × N ─▶ TranscriptLog
///                                  (never waits)            (drops counted)    (resample, recognize)
///
/// **Threads.** Recognition costs far more than recording (pocketsphinx: about a fifth of a
/// core per speaker on this machine), so it runs on its own queue, never on the transport loops
/// or the writer queue. At most ``queueCapacity`` blocks wait; beyond that they are dropped and
/// counted (`blocks_dropped` in the manifest entry), and a dropped block is fed as silence (the
/// next block's position shows the gap), so the timeline stays right.
///
/// **Errors.** A recognizer that cannot start or fails mid-way (a missing model, a command
/// engine that died) stops that participant's transcript and is reported once; the others and
/// the rest of the recording go on. The files are final when the recording stops.
public final class RoomTranscriber: @unchecked Sendable {
    // @unchecked Sendable: `participants`, `log` and `failed` are touched only on `queue`
    // (checked with dispatchPrecondition); the cross-thread state is the atomics and `status`.

    public static let defaultQueueCapacity = 2048
    struct Status: Sendable {
        var utterances = 0
        var error: String?
    }

    public let queueCapacity: Int
    private let queue = DispatchQueue(label: "agentd.transcript", qos: .utility)
    private let makeRecognizer: SpeechRecognizerFactory
    private let reportError: @Sendable (String) -> Void
    private let waiting = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let status = Mutex(Status())
    private var participants: [String: ParticipantTranscriber] = [:]
    /// Those whose recognizer failed: not fed again.
    private var failed: Set<String> = []
    private var log: TranscriptLog?
    private var finished = false
    /// transcript.jsonl and captions.vtt, or a continued recording's part of them.
    public let fileNames: [String]
    /// Where the files' span starts on the timeline: 0, or a continued recording's start.
    private let startMs: Int64

    /// Creates transcript.jsonl in `directory`; a file that cannot be created is an error in the
    /// manifest entry (and `reportError`), not a thrown one. A continued recording
    /// (``RecordingContinuation``) writes part `partNumber` of the files, from `startMs`.
    public init(directory: String, queueCapacity: Int = defaultQueueCapacity, recognizer: @escaping SpeechRecognizerFactory = PocketSphinxRecognizer.factory,
                partNumber: Int = 1, startMs: Int64 = 0, reportError: @escaping @Sendable (String) -> Void = { _ in }) {
        self.queueCapacity = max(1, queueCapacity)
        makeRecognizer = recognizer
        self.reportError = reportError
        self.startMs = startMs
        let names = TranscriptLog.fileNames(partNumber: partNumber)
        fileNames = [names.jsonLines, names.captions]
        do {
            log = try TranscriptLog(directory: directory, partNumber: partNumber)
        } catch {
            note("\(names.jsonLines): \(error)")
        }
    }

    /// Decoded blocks of `name`'s audio (48 kHz mono, timeline positions), from the writer queue.
    public func add(_ blocks: [(pcm: [Int16], sample: Int64)], from name: String) {
        for block in blocks {
            let previous = waiting.add(1, ordering: .relaxed).oldValue
            if previous >= queueCapacity {
                waiting.subtract(1, ordering: .relaxed)
                dropped.add(1, ordering: .relaxed)
                continue
            }
            let (pcm, sample) = (block.pcm, block.sample)
            queue.async { [self] in
                waiting.subtract(1, ordering: .relaxed)
                feed(pcm, atSample: sample, from: name)
            }
        }
    }

    /// `name` left: their last utterance is finished now rather than at the end.
    public func leave(_ name: String) {
        queue.async { [self] in close(name) }
    }

    /// Finishes every participant's stream and writes the files; waits until they are written.
    /// Idempotent.
    public func finish() {
        queue.sync { [self] in
            guard !finished else { return }
            finished = true
            for name in participants.keys.sorted() { close(name) }
            do {
                try log?.finish()
            } catch {
                note("\(fileNames.last ?? TranscriptLog.captionsName): \(error)")
            }
        }
    }

    /// Blocks dropped at the bounded queue.
    public var blocksDropped: Int64 { Int64(dropped.load(ordering: .relaxed)) }
    public var error: String? { status.withLock { $0.error } }
    public var utteranceCount: Int { status.withLock { $0.utterances } }

    /// transcript.jsonl's and captions.vtt's manifest entries.
    public func manifestFiles(bytes: (String) -> Int64?) -> [RecordingManifest.File] {
        let snapshot = status.withLock { $0 }
        return fileNames.map { path in
            var file = RecordingManifest.File(path: path, format: RecordingFormats.Format.transcript.rawValue, startMs: startMs, bytes: bytes(path))
            file.error = snapshot.error
            file.utterances = snapshot.utterances
            file.blocksDropped = blocksDropped
            return file
        }
    }

    // MARK: Transcript queue

    private func feed(_ pcm: [Int16], atSample sample: Int64, from name: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !finished, !failed.contains(name) else { return }
        do {
            let transcriber: ParticipantTranscriber
            if let existing = participants[name] {
                transcriber = existing
            } else {
                transcriber = try ParticipantTranscriber(name: name, recognizer: makeRecognizer())
                participants[name] = transcriber
            }
            write(try transcriber.add(pcm, atSample: sample))
        } catch {
            fail(name, error)
        }
    }

    private func close(_ name: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let transcriber = participants.removeValue(forKey: name) else { return }
        do {
            write(try transcriber.finish())
        } catch {
            fail(name, error)
        }
    }

    private func write(_ utterances: [TranscriptUtterance]) {
        for utterance in utterances {
            do {
                try log?.append(utterance)
                status.withLock { $0.utterances += 1 }
            } catch {
                note("\(fileNames.first ?? TranscriptLog.jsonLinesName): \(error)")
                return
            }
        }
    }

    private func fail(_ name: String, _ error: any Error) {
        failed.insert(name)
        participants[name] = nil
        note("\(name)'s speech recognizer: \(error)")
    }

    private func note(_ reason: String) {
        let first = status.withLock { status -> Bool in
            guard status.error == nil else { return false }
            status.error = reason
            return true
        }
        if first { reportError(reason) }
    }
}
