import Synchronization

/// The one queue between an event's producers (the transport loop, the control path, timers) and
/// a slow consumer: ``Channel/events``, a delegate's stream, ``BotKit``'s bot events.
///
/// Unlike `AsyncStream`'s `.bufferingNewest(n)`, which silently drops the oldest event when full
/// (a `userJoined` could go while that user's tracks arrive), it treats events by their
/// ``EventBufferClass``:
/// - ``EventBufferClass/kept`` events (roster, connection state, lifecycle) are never merged or
///   dropped below the ``ceiling``, and keep their order.
/// - ``EventBufferClass/newest(kind:)`` events (statistics) coalesce: at most one is pending per
///   kind, the newest, at the place of its arrival.
/// - ``EventBufferClass/limited`` events (data messages) are kept in order up to ``limitedCapacity``
///   pending, then dropped.
///
/// Memory stays bounded: pending kept events are at most ``ceiling``, limited ones at most
/// ``limitedCapacity``, snapshots one per kind. An event past a bound is discarded, counted in
/// ``counts``, and the stream says so where it happened: an `eventsLost(count:)` event stands in
/// the gap (one per run of discarded events), so the consumer knows to resync (e.g. from
/// ``Channel/users``) instead of trusting a roster with a hole in it.
///
/// One consumer at a time (as `AsyncStream`); a consumer whose task is cancelled ends the stream,
/// as `AsyncStream` does, and what was pending is released.
public final class EventBuffer<Event: BufferedEvent>: Sendable {
    /// The default ceiling on pending kept events: far above any real room. A VideoRoom of 1,000
    /// publishers that all join with two tracks and all leave again is about 6,000 roster events;
    /// a consumer 65,536 events behind is stuck, not slow. About 100 bytes each (a `User` and a
    /// track reference), that is a few MiB at most.
    public static var defaultCeiling: Int { 65_536 }
    /// The default limit on pending data messages: they are the remote side's to send at any rate
    /// and size, so they get a bound of their own, well below the ceiling.
    public static var defaultLimitedCapacity: Int { 1_024 }

    /// The most pending ``EventBufferClass/kept`` events.
    public let ceiling: Int
    /// The most pending ``EventBufferClass/limited`` events.
    public let limitedCapacity: Int
    private let state: Mutex<State>

    public init(ceiling: Int = EventBuffer.defaultCeiling, limitedCapacity: Int = EventBuffer.defaultLimitedCapacity) {
        self.ceiling = max(1, ceiling)
        self.limitedCapacity = max(1, limitedCapacity)
        state = Mutex(State())
    }

    /// What was coalesced and dropped so far.
    public var counts: EventBufferCounts { state.withLock { $0.counts } }

    /// Events waiting for the consumer (markers of lost events included).
    public var pendingCount: Int { state.withLock { $0.slots.count - $0.head - $0.vacant } }

    /// Consumers waiting for an event (for tests).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// The buffer as a stream for `for await`; read it from one task.
    public var stream: AsyncStream<Event> {
        AsyncStream(unfolding: { [self] in await next() })
    }

    /// Adds `event`, or hands it to a waiting consumer. Ignored once finished. Never blocks.
    public func yield(_ event: Event) {
        let waiter = state.withLock { state -> CheckedContinuation<Event?, Never>? in
            guard !state.finished else { return nil }
            if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
            state.enqueue(event, ceiling: ceiling, limitedCapacity: limitedCapacity)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// Ends the stream after what is pending. Idempotent; later events are ignored.
    public func finish() {
        let waiters = state.withLock { state in
            state.finished = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// The next event, in order; nil once finished and drained, or when the calling task is cancelled
    /// (which ends the stream).
    public func next() async -> Event? {
        let id = state.withLock { state in
            defer { state.nextWaiterID &+= 1 }
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
                let ready = state.withLock { state -> Event?? in
                    if let event = state.dequeue() { return .some(event) }
                    if state.finished { return .some(nil) }
                    if Task.isCancelled {
                        state.terminate()
                        return .some(nil)
                    }
                    state.waiters.append((id, continuation))
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            // Take this consumer's continuation out, so nothing else (yield, finish) resumes it again.
            let cancelled = state.withLock { state -> CheckedContinuation<Event?, Never>? in
                state.terminate()
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            cancelled?.resume(returning: nil)
        }
    }

    private enum Slot {
        case event(Event)
        /// Stands for `count` discarded events.
        case lost(Int)
        /// A coalesced snapshot's old place, or a consumed one.
        case vacant
    }

    private struct State {
        /// Pending events from `head` on (a plain array with a moving head: no per-event allocation).
        var slots: [Slot] = []
        var head = 0
        /// Vacant slots at or after `head`.
        var vacant = 0
        var keptPending = 0
        var limitedPending = 0
        /// Where the pending snapshot of each kind is (an index into `slots`).
        var newestSlot: [Int: Int] = [:]
        var counts = EventBufferCounts()
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Event?, Never>)] = []
        var nextWaiterID: UInt64 = 0
        var finished = false

        mutating func enqueue(_ event: Event, ceiling: Int, limitedCapacity: Int) {
            switch event.bufferClass {
            case .kept:
                guard keptPending < ceiling else { return discard() }
                keptPending += 1
            case .limited:
                guard limitedPending < limitedCapacity else { return discard() }
                limitedPending += 1
            case .newest(let kind):
                if let old = newestSlot[kind] {
                    slots[old] = .vacant
                    vacant += 1
                    counts.coalesced += 1
                }
                newestSlot[kind] = slots.count
            }
            slots.append(.event(event))
            compactIfSparse()
        }

        /// Counts one discarded event and marks the gap: the marker at the tail grows, or a new one starts.
        private mutating func discard() {
            counts.dropped += 1
            if slots.count > head, case .lost(let count) = slots[slots.count - 1] {
                slots[slots.count - 1] = .lost(count + 1)
            } else {
                slots.append(.lost(1))
            }
        }

        mutating func dequeue() -> Event? {
            while head < slots.count {
                let slot = slots[head]
                slots[head] = .vacant
                let index = head
                head += 1
                switch slot {
                case .vacant:
                    vacant -= 1
                case .lost(let count):
                    releaseConsumed()
                    return Event.eventsLost(count: count)
                case .event(let event):
                    switch event.bufferClass {
                    case .kept: keptPending -= 1
                    case .limited: limitedPending -= 1
                    case .newest(let kind): if newestSlot[kind] == index { newestSlot[kind] = nil }
                    }
                    releaseConsumed()
                    return event
                }
            }
            releaseConsumed()
            return nil
        }

        /// Ends the stream for good: nothing pending is kept.
        mutating func terminate() {
            finished = true
            slots.removeAll()
            head = 0
            vacant = 0
            keptPending = 0
            limitedPending = 0
            newestSlot.removeAll()
        }

        /// Drops the consumed prefix once it is most of the array (amortized O(1) per event).
        private mutating func releaseConsumed() {
            if head == slots.count {
                slots.removeAll(keepingCapacity: slots.count <= 4_096)
                head = 0
                vacant = 0
            } else if head >= 1_024, head * 2 >= slots.count {
                compact()
            }
        }

        /// Coalescing leaves vacant slots behind; squeeze them out once they outnumber the rest.
        private mutating func compactIfSparse() {
            if vacant >= 1_024, vacant * 2 >= slots.count - head { compact() }
        }

        private mutating func compact() {
            var kept: [Slot] = []
            kept.reserveCapacity(slots.count - head - vacant)
            newestSlot.removeAll(keepingCapacity: true)
            for slot in slots[head...] {
                switch slot {
                case .vacant: continue
                case .event(let event):
                    if case .newest(let kind) = event.bufferClass { newestSlot[kind] = kept.count }
                    kept.append(slot)
                case .lost: kept.append(slot)
                }
            }
            slots = kept
            head = 0
            vacant = 0
        }
    }
}
