import Agent
import Synchronization

/// Reads a ``FramePlaylist`` ahead on a worker lane into a bounded buffer, so the pacer on the
/// transport loop never waits on a file: IVF and Ogg reads, libwebm's demuxing and a PCM file's
/// resampling and Opus encoding all happen on the lane.
///
/// The buffer holds at most ``capacity`` items (about 0.8 s of 20 ms audio beside 30 fps video);
/// each take below half of it asks the lane for more. When the pacer finds the buffer empty
/// before the playlist ended, the lane fell behind: ``underruns`` counts it, and the pacer
/// tries again on its next tick. A read error ends the list after the items read before it.
final class FramePrefetch: Sendable {
    enum Next {
        case item(FramePlaylist.Item)
        /// Nothing read yet: the lane is behind (or has only just started).
        case waiting
        /// The list is over: at its end (nil) or at a read error (its description).
        case ended(readError: String?)
    }

    struct State {
        var items: [FramePlaylist.Item] = []
        /// Where the next item to take is in `items` (taken ones are removed in batches).
        var head = 0
        var reading = false
        var end: String??
        var underruns = 0
        var delivered = false
        var stopped = false

        var count: Int { items.count - head }
    }

    /// The playlist, touched only by this prefetch's read jobs: at most one is queued or running
    /// at a time (`State.reading`), all on one serial lane.
    private final class PlaylistBox: @unchecked Sendable {
        let playlist: FramePlaylist
        init(_ playlist: FramePlaylist) { self.playlist = playlist }
    }

    static let defaultCapacity = 64

    let capacity: Int
    private let box: PlaylistBox
    private let lane: WorkerLane
    private let state = Mutex(State())

    init(_ playlist: FramePlaylist, capacity: Int = defaultCapacity, lane: WorkerLane = WorkerLanes.shared.nextLane()) {
        box = PlaylistBox(playlist)
        self.capacity = max(2, capacity)
        self.lane = lane
        if state.withLock({ claimRead(&$0) }) { readAhead() }
    }

    /// Times the pacer found nothing read while the list went on (after the first item).
    var underruns: Int { state.withLock { $0.underruns } }

    /// The next item in time order, if read; asks the lane for more when the buffer runs low.
    func next() -> Next {
        let (next, refill) = state.withLock { state -> (Next, Bool) in
            let next = Self.take(&state, capacity: capacity)
            return (next, claimRead(&state))
        }
        if refill { readAhead() }
        return next
    }

    /// The next item out of the buffer, or why there is none.
    private static func take(_ state: inout State, capacity: Int) -> Next {
        if state.count > 0 {
            let item = state.items[state.head]
            state.head += 1
            if state.head >= capacity {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            state.delivered = true
            return .item(item)
        }
        if let end = state.end { return .ended(readError: end) }
        if state.delivered { state.underruns += 1 }
        return .waiting
    }

    /// No more reading: a read under way finishes its item, nothing new is asked for. Idempotent.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Whether to queue a read job: not while one is queued or running, the buffer is more than
    /// half full, the list ended, or after a stop. Marks it started.
    private func claimRead(_ state: inout State) -> Bool {
        guard !state.reading, !state.stopped, state.end == nil, state.count <= capacity / 2 else { return false }
        state.reading = true
        return true
    }

    /// Queues the read job ``claimRead(_:)`` allowed. A full lane refuses (it counts the
    /// refusal); the next take asks again.
    private func readAhead() {
        let queued = lane.tryEnqueue { [self] in read() }
        if !queued { state.withLock { $0.reading = false } }
    }

    /// On the lane: reads until the buffer is full, the list ends, or a stop.
    private func read() {
        while true {
            let room = state.withLock { state -> Bool in
                guard !state.stopped, state.count < capacity else {
                    state.reading = false
                    return false
                }
                return true
            }
            guard room else { return }
            let result = Result { try box.playlist.next() }
            let more = state.withLock { state -> Bool in
                switch result {
                case .success(let item?):
                    state.items.append(item)
                    return true
                case .success(nil):
                    state.end = .some(nil)
                case .failure(let error):
                    state.end = .some(String(describing: error))
                }
                state.reading = false
                return false
            }
            guard more else { return }
        }
    }
}
