import Agent
import Dispatch
import Foundation
import Synchronization

/// The room composite (`--formats composite`): `room.webm`, one VP8 picture of the room and the
/// room mix as Opus, composited natively (no browser) by a ``Compositor`` on its own queue.
///
///     recorder's writer queue ── join/leave/frame/audio/mix ──▶ bounded count ──▶ serial composite queue ──▶ Compositor ─▶ room.webm
///                                  (never waits)                  (drops counted)   (decode, tile, encode, mux)
///
/// **Threads.** Decoding every participant's video and encoding the canvas is the heaviest work
/// a recording does, so it runs neither on the transport loops nor on the recorder's writer
/// queue. Calls only count and enqueue. At most ``queueCapacity`` video frames and audio levels
/// may wait; beyond that they are dropped and counted (`frames_dropped` in room.webm's manifest
/// entry). A dropped video frame leaves the decoder to go on from the frame after it (VP8 and
/// VP9 decode on with a wrong reference and heal at the next keyframe or golden frame) rather
/// than freeze the tile until a keyframe that may be far off. Joins, leaves, mix blocks and the
/// finish are never dropped: the timeline and the audio depend on them, and they are few (the
/// mix is 50 blocks a second).
///
/// **Errors.** A failing encoder or a full disk ends room.webm as far as it got; the error is in
/// its manifest entry and goes to `reportError` once.
public final class RoomCompositor: @unchecked Sendable {
    // @unchecked Sendable: `compositor` and `failed` are touched only on `queue` (checked with
    // dispatchPrecondition in `run`); the cross-thread state is the atomics and `status`.

    public static let fileName = "room.webm"
    /// Items that may wait: about 3 s of four participants' video frames and audio levels
    /// (30 + 50 a second each), so a compositor held up by a burst of keyframes or a busy
    /// machine catches up instead of dropping; a few MB of encoded frames at most.
    public static let defaultQueueCapacity = 1024

    public let settings: CompositeSettings
    public let queueCapacity: Int

    struct Status: Sendable {
        var framesEncoded: Int64 = 0
        /// Every part, the one being written last.
        var parts = [CompositeMuxer.Part(number: 1, startMs: 0, durationMs: 0)]
        var framesUndecodable: Int64 = 0
        var error: String?
    }

    private let queue: DispatchQueue
    private let waiting = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let status: Mutex<Status>
    private let reportError: @Sendable (String) -> Void
    private var compositor: Compositor?
    private var failed = false

    /// Creates `room.webm` at `path`, and with `segments` its parts beside it (`room.part2.webm`,
    /// ...). A file that cannot be created is an error in the manifest entry (and
    /// `reportError`), not a thrown one: the rest of the recording goes on. A continued recording
    /// (``RecordingContinuation``) starts at `startMs` in part `firstPart` (`room.part2.webm`).
    public convenience init(path: String, settings: CompositeSettings, segments: RecordingSegments? = nil,
                            queueCapacity: Int = defaultQueueCapacity, startMs: Int64 = 0, firstPart: Int = 1,
                            reportError: @escaping @Sendable (String) -> Void = { _ in }) {
        let sink: ByteSink?
        var failure: String?
        do {
            sink = try FileByteSink(path: RecordingSegments.partPath(path, number: firstPart))
        } catch {
            sink = nil
            failure = "\(error)"
        }
        self.init(sink: sink, settings: settings, queueCapacity: queueCapacity, failure: failure, reportError: reportError,
                  segments: segments, openPartSink: { number in try FileByteSink(path: RecordingSegments.partPath(path, number: number)) },
                  discardPart: { number in unlink(RecordingSegments.partPath(path, number: number)) },
                  startMs: startMs, firstPart: firstPart)
    }

    /// The same over any sink (tests write to memory).
    init(sink: ByteSink?, settings: CompositeSettings, queueCapacity: Int = defaultQueueCapacity, failure: String? = nil,
         reportError: @escaping @Sendable (String) -> Void = { _ in },
         segments: RecordingSegments? = nil, openPartSink: ((Int) throws -> ByteSink)? = nil, discardPart: @escaping (Int) -> Void = { _ in },
         startMs: Int64 = 0, firstPart: Int = 1) {
        self.settings = settings
        self.queueCapacity = max(1, queueCapacity)
        self.reportError = reportError
        queue = DispatchQueue(label: "agentd.composite", qos: .utility)
        status = Mutex(Status(parts: [CompositeMuxer.Part(number: max(1, firstPart), startMs: max(0, startMs), durationMs: 0)]))
        var failure = failure
        if let sink, failure == nil {
            do {
                compositor = try Compositor(sink: sink, settings: settings, segments: segments, openPartSink: openPartSink,
                                            discardPart: discardPart, startMs: startMs, firstPart: firstPart)
            } catch {
                failure = "\(error)"
            }
        }
        if let failure { fail(failure) }
    }

    // MARK: Producer side (any thread; the recorder's writer queue in practice)

    /// `name` is on screen from `atMs`.
    public func join(_ name: String, display: String, atMs: Int64) {
        enqueue(droppable: false) { try $0.join(name, display: display, atMs: atMs) }
    }

    /// `name` leaves the screen at `atMs`.
    public func leave(_ name: String, atMs: Int64) {
        enqueue(droppable: false) { try $0.leave(name, atMs: atMs) }
    }

    /// One frame of `name`'s: video to decode at `atMs` (its time in their own WebM), and the
    /// audio blocks it decoded to (for the active speaker).
    public func add(_ frame: RemoteFrame, atMs: Int64, audio: [(pcm: [Int16], sample: Int64)], from name: String) {
        if frame.kind == .video {
            let (bytes, codec, isKeyframe) = (frame.bytes, frame.codec, frame.isKeyframe)
            enqueue(droppable: true) { try $0.video(bytes, codec: codec, isKeyframe: isKeyframe, atMs: atMs, from: name) }
        }
        for block in audio {
            let level = ActiveSpeakerTracker.level(of: block.pcm)
            let (count, sample) = (block.pcm.count, block.sample)
            enqueue(droppable: true) { try $0.audio(level: level, samples: count, atSample: sample, from: name) }
        }
    }

    /// One block of the room mix (``RoomMixer``'s block sink).
    public func mix(_ pcm: [Int16], atSample sample: Int64) {
        enqueue(droppable: false) { try $0.mix(pcm, atSample: sample) }
    }

    /// Renders up to `atMs`, finishes the file and waits until it is closed. Idempotent.
    public func finish(atMs: Int64) {
        enqueue(droppable: false) { try $0.finish(atMs: atMs) }
        queue.sync {}
    }

    /// Video frames and audio levels dropped at the bounded queue.
    public var framesDropped: Int64 { Int64(dropped.load(ordering: .relaxed)) }

    /// The first error, if any.
    public var error: String? { status.withLock { $0.error } }

    /// Test hooks: hold and release the queue, to fill it deterministically.
    func suspend() { queue.suspend() }
    func resume() { queue.resume() }

    /// room.webm and its parts, in order (`room.webm`, `room.part2.webm`, ...).
    public var fileNames: [String] {
        status.withLock { $0.parts }.map { RecordingSegments.partPath(Self.fileName, number: $0.number) }
    }

    /// room.webm's manifest entries, one per part: VP8 at the composite's size and the mix as
    /// mono Opus. The error and the drop count are on the last part (the one being written).
    public func manifestFiles(bytes: (String) -> Int64?) -> [RecordingManifest.File] {
        let snapshot = status.withLock { $0 }
        let last = snapshot.parts.last?.number
        return snapshot.parts.map { part in
            let (number, startMs, durationMs) = (part.number, part.startMs, part.durationMs)
            let path = RecordingSegments.partPath(Self.fileName, number: number)
            var file = RecordingManifest.File(
                path: path, format: RecordingFormats.Format.composite.rawValue, startMs: startMs,
                tracks: [.init(kind: .video, codec: MediaCodec.vp8.name, width: settings.width, height: settings.height),
                         .init(kind: .audio, codec: MediaCodec.opus.name, channels: 1, sampleRate: 48_000)],
                bytes: bytes(path), durationMs: durationMs)
            file.container = MatroskaDocType.webm.rawValue
            if number == last {
                file.error = snapshot.error
                file.framesDropped = framesDropped
            }
            return file
        }
    }

    // MARK: Composite queue

    private func enqueue(droppable: Bool, _ work: @escaping @Sendable (Compositor) throws -> Void) {
        let previous = waiting.add(1, ordering: .relaxed).oldValue
        if droppable, previous >= queueCapacity {
            waiting.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        queue.async { [self] in
            waiting.subtract(1, ordering: .relaxed)
            run(work)
        }
    }

    private func run(_ work: (Compositor) throws -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !failed, let compositor else { return }
        do {
            try work(compositor)
        } catch {
            compositor.abandon()
            fail("\(error)")
        }
        let (frames, parts, undecodable) = (compositor.framesEncoded, compositor.parts, compositor.framesUndecodable)
        status.withLock {
            $0.framesEncoded = frames
            $0.parts = parts
            $0.framesUndecodable = undecodable
        }
    }

    private func fail(_ reason: String) {
        failed = true
        status.withLock { $0.error = reason }
        reportError("\(Self.fileName): \(reason)")
    }
}
