import AgentCore

/// When each captured record reaches the receive path in a replay: its capture offset, moved by
/// the ``ReplayImpairments`` (drawn in record order from the seed, so a schedule is repeatable),
/// in delivery order. A lost packet has no delivery; a duplicated one has two.
struct ReplaySchedule: Equatable {
    struct Delivery: Equatable {
        /// Nanoseconds since the capture's start.
        var atNanoseconds: Int64
        /// The record delivered.
        var record: Int
    }

    struct Counters: Equatable {
        var lost = 0
        var reordered = 0
        var duplicated = 0
    }

    private(set) var deliveries: [Delivery] = []
    private(set) var counters = Counters()

    init(offsetsMilliseconds: [UInt32], isRTCP: [Bool], impairments: ReplayImpairments) {
        var random = SeededRandom(state: impairments.seed)
        let jitter = max(0, impairments.jitter.totalNanoseconds)
        deliveries.reserveCapacity(offsetsMilliseconds.count)
        for (index, offset) in offsetsMilliseconds.enumerated() {
            var at = Int64(offset) * 1_000_000
            let rtcp = index < isRTCP.count && isRTCP[index]
            // Every draw is made whatever the outcome, so one impairment's rate never shifts
            // another's choices.
            let lose = Double.random(in: 0..<1, using: &random) < impairments.loss
            let hold = Double.random(in: 0..<1, using: &random) < impairments.reorder
            let twice = Double.random(in: 0..<1, using: &random) < impairments.duplicate
            let delay = jitter > 0 ? Int64.random(in: 0...jitter, using: &random) : 0
            let holdBack = Int64.random(in: 5_000_000...40_000_000, using: &random)
            let secondDelay = Int64.random(in: 0...5_000_000, using: &random)
            at += delay
            if !rtcp && lose {
                counters.lost += 1
                continue
            }
            if !rtcp && hold {
                counters.reordered += 1
                at += holdBack
            }
            deliveries.append(Delivery(atNanoseconds: at, record: index))
            if !rtcp && twice {
                counters.duplicated += 1
                deliveries.append(Delivery(atNanoseconds: at + secondDelay, record: index))
            }
        }
        // Stable: records delivered at the same instant keep their capture order.
        deliveries = deliveries.enumerated().sorted {
            ($0.element.atNanoseconds, $0.offset) < ($1.element.atNanoseconds, $1.offset)
        }.map(\.element)
    }
}
