import Foundation
import Synchronization

/// A small fixed set of serial ``WorkerLane``s (by default one per core) for CPU work that must
/// not run on a transport loop: decoding a remote track's media, for instance. A loop's thread
/// also runs ICE, DTLS, SRTP and SCTP for every connection on it, so a decoder there would delay
/// all of them.
///
/// Work that must stay in order goes to the same lane: pick one by a key (``lane(for:)``,
/// ``tryEnqueue(key:_:)``), or take one in turn for a new stream (``nextLane()``) and keep it.
/// Each lane holds at most ``capacity`` waiting items; past that ``tryEnqueue(key:_:)`` refuses
/// without blocking and counts the refusal (``dropped``), so a slow decoder costs frames, never
/// the loop's time.
///
/// ``shared`` serves the whole process (its lanes live as long as it does); a set of one's own
/// ends with ``shutdown()``.
public final class WorkerLanes: Sendable {
    /// The process's lanes: one per core, 256 waiting items each (five seconds of one track's
    /// 20 ms audio, eight of 30 fps video).
    public static let shared = WorkerLanes()

    public static let defaultCapacity = 256

    /// The lanes, in key order; never empty.
    public let lanes: [WorkerLane]
    private let turn = Atomic<Int>(0)

    /// - Parameters:
    ///   - count: lanes (threads); at least one. Defaults to the active processor count.
    ///   - capacity: items each lane holds waiting before it refuses more; at least one.
    ///   - name: the threads' name prefix, `name.0`, `name.1`, …: Linux keeps 15 bytes of a thread name.
    public init(count: Int = ProcessInfo.processInfo.activeProcessorCount, capacity: Int = defaultCapacity,
                name: String = "agentd.lane") {
        lanes = (0..<max(1, count)).map { WorkerLane(name: "\(name).\($0)", capacity: capacity) }
    }

    deinit {
        shutdown()
    }

    public var count: Int { lanes.count }
    public var capacity: Int { lanes[0].capacity }

    /// Items refused so far, by every lane: queues full, or shut down.
    public var dropped: Int { lanes.reduce(0) { $0 + $1.dropped } }

    /// The lane for `key`: the same key, the same lane, for the set's life.
    public func lane(for key: Int) -> WorkerLane {
        lanes[Int(key.magnitude % UInt(lanes.count))]
    }

    /// The next lane in turn, for a new stream of work to keep (spreads streams over the lanes).
    public func nextLane() -> WorkerLane {
        lane(for: turn.add(1, ordering: .relaxed).oldValue)
    }

    /// Queues `work` on the lane for `key` unless that lane is full or shut down; see
    /// ``WorkerLane/tryEnqueue(_:)``.
    @discardableResult
    public func tryEnqueue(key: Int, _ work: @escaping @Sendable () -> Void) -> Bool {
        lane(for: key).tryEnqueue(work)
    }

    /// Resumes once everything queued on any lane before the call has run.
    public func flush() async {
        for lane in lanes { await lane.flush() }
    }

    /// Stops every lane: nothing new is taken, what is queued runs, and the call returns when the
    /// threads have ended (a lane's own work does not wait for itself). Idempotent.
    public func shutdown() {
        for lane in lanes { lane.requestStop() }
        for lane in lanes { lane.waitUntilStopped() }
    }
}
