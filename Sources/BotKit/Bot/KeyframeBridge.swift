import Agent
import Synchronization

/// Answers keyframe requests for a playlist's video, which is sent as stored: the loop side of
/// ``KeyframeBridgeTranscoder``, which does the decoding and encoding on a worker lane.
///
/// The scheduler hands every due video item to ``route(_:)``. Normally it comes straight back
/// to be sent, and the bridge remembers the frames since the last stored keyframe. After
/// ``requestKeyframe()`` the items go to the lane instead, in order, and what the lane makes of
/// them (our keyframe, our frames, then from the next stored keyframe the stored ones) comes
/// back through `deliver` on the loop, a few milliseconds later, with the stored frames' RTP
/// times. Items go to the lane until everything handed to it has come back and the stored
/// keyframe passed, so the order never changes.
///
/// Confined to the loop, apart from the lane's jobs, which touch only the transcoder and post
/// their results to the loop that was current when they were queued; ``reset(loop:)`` (a
/// reconnect) starts a new generation, and results of an older one are dropped.
final class KeyframeBridge: @unchecked Sendable {
    // @unchecked Sendable: the stored properties but `transcoder` (the lane's, one job at a
    // time) and `generation` (atomic) are touched only on `loop`, asserted by the scheduler.
    private let lane: WorkerLane
    private let transcoder = TranscoderBox()
    private let generation = Atomic<Int>(0)
    private let deliver: @Sendable (FramePlaylist.Item) -> Void
    private var loop: EventLoop
    private var history: [EncodedMediaFrame] = []
    private var bridging = false
    private var inFlight = 0
    /// Keyframe requests the bridge answered with a keyframe of its own.
    private(set) var keyframesMade = 0

    private final class TranscoderBox: @unchecked Sendable {
        let transcoder = KeyframeBridgeTranscoder()
    }

    init(loop: EventLoop, lane: WorkerLane = WorkerLanes.shared.nextLane(), deliver: @escaping @Sendable (FramePlaylist.Item) -> Void) {
        self.loop = loop
        self.lane = lane
        self.deliver = deliver
    }

    /// A stored video item is due: returns it to send now, or nil when the lane has it.
    func route(_ item: FramePlaylist.Item) -> FramePlaylist.Item? {
        guard bridging || inFlight > 0 else {
            remember(item.frame)
            return item
        }
        inFlight += 1
        let (box, generation, loop) = (transcoder, generation.load(ordering: .relaxed), loop)
        _ = lane.enqueue { [self] in
            let output = box.transcoder.process(item.frame)
            let ended = box.transcoder.mode == .passing
            loop.execute { [self] in
                guard self.generation.load(ordering: .relaxed) == generation else { return }
                inFlight -= 1
                if ended { bridging = false }
                switch output {
                case .stored:
                    remember(item.frame)
                    deliver(item)
                case .bridged(let frames):
                    for frame in frames {
                        var ours = item
                        ours.frame = frame
                        deliver(ours)
                    }
                }
            }
        }
        return nil
    }

    /// Keeps the stored frames since the last stored keyframe, up to what the transcoder takes
    /// (beyond that none, until the next keyframe).
    private func remember(_ frame: EncodedMediaFrame) {
        if frame.isKeyframe { history.removeAll(keepingCapacity: true) }
        guard frame.isKeyframe || !history.isEmpty else { return }
        if history.count < KeyframeBridgeTranscoder.maxCatchUpFrames { history.append(frame) } else { history.removeAll() }
    }

    /// A receiver asked for a keyframe: bridge from the next video item, unless already bridging
    /// or there is nothing to catch up on (no video yet, or a run longer than the transcoder takes).
    func requestKeyframe() {
        guard !bridging, inFlight == 0, history.first?.isKeyframe == true else { return }
        bridging = true
        inFlight += 1
        let (box, generation, loop, stored) = (transcoder, generation.load(ordering: .relaxed), loop, history)
        // What follows is ours until the next stored keyframe: nothing to catch up on from there.
        history.removeAll()
        _ = lane.enqueue { [self] in
            let started = box.transcoder.start(after: stored)
            loop.execute { [self] in
                guard self.generation.load(ordering: .relaxed) == generation else { return }
                inFlight -= 1
                if started { keyframesMade += 1 } else { bridging = false }
            }
        }
    }

    /// Sends on `loop` from now on (a reconnect): what the lane still has is dropped, and video
    /// goes out as stored until the next request.
    func reset(loop: EventLoop) {
        generation.add(1, ordering: .relaxed)
        self.loop = loop
        bridging = false
        inFlight = 0
        history.removeAll()
        let box = transcoder
        _ = lane.enqueue { box.transcoder.stop() }
    }
}
