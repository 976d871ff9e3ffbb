/// A worker's room for jobs: the capacity it was given and what its jobs cost now. Jobs are
/// claimed only while they fit; a recording's cost grows as people join, so `used` can pass
/// the capacity, and then nothing more is claimed until it falls back.
package struct WorkerCapacity: Sendable, Equatable {
    package let capacity: Double
    package private(set) var costs: [String: Double] = [:]

    package init(capacity: Double) {
        self.capacity = max(0, capacity)
    }

    package var used: Double { costs.values.reduce(0, +) }
    package var free: Double { max(0, capacity - used) }

    /// Whether a job of `cost` fits beside the ones held (a little slack for rounding).
    package func fits(_ cost: Double) -> Bool {
        used + cost <= capacity + 1e-9
    }

    /// Holds job `id` at `cost` (or updates its cost).
    package mutating func hold(_ id: String, cost: Double) {
        costs[id] = max(0, cost)
    }

    package mutating func release(_ id: String) {
        costs[id] = nil
    }

    package var held: Int { costs.count }
}
