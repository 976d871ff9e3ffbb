import Agent
import Synchronization

/// Receive counters summed over every stream a job subscribed to.
struct ReceiveCounters: Sendable, Equatable {
    var packets = 0
    var bytes = 0
    var lost = 0
    var nacks = 0
    var plis = 0

    static func + (left: ReceiveCounters, right: ReceiveCounters) -> ReceiveCounters {
        ReceiveCounters(packets: left.packets + right.packets, bytes: left.bytes + right.bytes, lost: left.lost + right.lost,
                        nacks: left.nacks + right.nacks, plis: left.plis + right.plis)
    }
}

/// Keeps the latest statistics of each (participant, kind) stream from a room's event flow, for
/// the job's figures and /metrics. The statistics are cumulative per stream, so the latest one
/// of each is what counts.
final class ReceiveTotals: Sendable {
    private let latest = Mutex<[String: ReceiveStreamStatistics]>([:])

    /// Takes every room event; cheap for all but statistics (it is called per frame).
    func note(_ event: RoomEvent) {
        guard case .statistics(let participant, let kind, let statistics) = event else { return }
        latest.withLock { $0["\(participant)/\(kind)"] = statistics }
    }

    var counters: ReceiveCounters {
        latest.withLock { streams in
            streams.values.reduce(into: ReceiveCounters()) { sum, stream in
                sum = sum + ReceiveCounters(packets: stream.packets, bytes: stream.bytes, lost: stream.lost,
                                            nacks: stream.nacks, plis: stream.plis)
            }
        }
    }
}
