/// The samples an ``AudioTrack`` holds between the code that pushes PCM and the pacer that pulls
/// 20 ms frames: a fixed ring of interleaved PCM, and behind it, in push order, the parts of
/// pushes that did not fit yet, each with the waiter to wake once all of it is in the ring.
///
/// A plain value that takes events (append, take, remove, cancel) and hands back the waiters to
/// resume, so the track resumes them outside its lock and tests drive it without tasks. The ring
/// is allocated once; taking a frame allocates nothing.
struct PCMQueue<Waiter: Sendable>: Sendable {
    /// A push, or what is left of it, waiting for room.
    private struct PendingPush {
        var id: UInt64
        var samples: [Float]
        var offset: Int
        var waiter: Waiter
    }

    /// Samples (not frames) the ring holds at most.
    let capacity: Int
    private var ring: [Float]
    /// Index of the oldest sample in `ring`.
    private var head = 0
    /// Samples in the ring.
    private(set) var count = 0
    /// Oldest first; rarely more than one or two, so removal from the front is cheap enough.
    private var pending: [PendingPush] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        ring = [Float](repeating: 0, count: self.capacity)
    }

    /// Free samples in the ring.
    var room: Int { capacity - count }
    /// Pushes that wait for room.
    var waitingCount: Int { pending.count }

    /// Queues all of `samples` if they fit now and no push waits ahead of them; otherwise queues
    /// nothing and returns false.
    mutating func appendIfRoom(_ samples: [Float]) -> Bool {
        guard pending.isEmpty, samples.count <= room else { return false }
        write(samples[...])
        return true
    }

    /// Queues what fits of `samples`; the rest waits behind earlier pushes until ``take(into:)``
    /// frees room. Returns `waiter` when everything went in at once (resume it now), nil when it
    /// now waits.
    mutating func append(_ samples: [Float], id: UInt64, waiter: Waiter) -> Waiter? {
        var offset = 0
        if pending.isEmpty {
            offset = min(room, samples.count)
            write(samples[..<offset])
        }
        guard offset < samples.count else { return waiter }
        pending.append(PendingPush(id: id, samples: samples, offset: offset, waiter: waiter))
        return nil
    }

    /// Moves the oldest samples into `frame`, up to its size, and zeroes the rest of it; then lets
    /// waiting pushes into the room that freed. Returns the samples taken and the waiters of pushes
    /// that are now queued entirely.
    mutating func take(into frame: UnsafeMutableBufferPointer<Float>) -> (taken: Int, completed: [Waiter]) {
        let taken = min(count, frame.count)
        var copied = 0
        while copied < taken {
            let run = min(taken - copied, capacity - head)
            for index in 0..<run { frame[copied + index] = ring[head + index] }
            copied += run
            head = (head + run) % capacity
        }
        count -= taken
        for index in taken..<frame.count { frame[index] = 0 }
        return (taken, admitPending())
    }

    /// Drops every queued and waiting sample. Returns how many samples went and the waiters of the
    /// pushes cut short.
    mutating func removeAll() -> (droppedSamples: Int, waiters: [Waiter]) {
        let dropped = count + pending.reduce(0) { $0 + $1.samples.count - $1.offset }
        let waiters = pending.map(\.waiter)
        pending.removeAll()
        head = 0
        count = 0
        return (dropped, waiters)
    }

    /// Withdraws the part of push `id` that still waits, leaving what is already queued. Returns
    /// its waiter, or nil when that push no longer waits.
    mutating func cancel(id: UInt64) -> Waiter? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        return pending.remove(at: index).waiter
    }

    // MARK: Helpers

    private mutating func write(_ samples: ArraySlice<Float>) {
        var source = samples.startIndex
        while source < samples.endIndex {
            let tail = (head + count) % capacity
            let run = min(samples.endIndex - source, capacity - tail, room)
            guard run > 0 else { return }  // callers only write what fits; never spin on a full ring
            for index in 0..<run { ring[tail + index] = samples[source + index] }
            source += run
            count += run
        }
    }

    private mutating func admitPending() -> [Waiter] {
        var completed: [Waiter] = []
        while room > 0, !pending.isEmpty {
            let end = min(pending[0].samples.count, pending[0].offset + room)
            write(pending[0].samples[pending[0].offset..<end])
            pending[0].offset = end
            guard end == pending[0].samples.count else { break }
            completed.append(pending.removeFirst().waiter)
        }
        return completed
    }
}
