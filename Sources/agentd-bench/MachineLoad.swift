import Foundation

/// Whole-machine CPU time from the `cpu` line of /proc/stat (proc(5)), to show how busy the
/// machine was during a measurement: a saturated machine makes every figure beside it suspect.
struct MachineLoad: Sendable {
    let busyTicks: UInt64
    let totalTicks: UInt64

    /// `cpu  user nice system idle iowait irq softirq steal …`: idle and iowait are not busy.
    static func read() -> MachineLoad? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        let values = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard values.count >= 5 else { return nil }
        let total = values.reduce(0, +)
        return MachineLoad(busyTicks: total - values[3] - values[4], totalTicks: total)
    }

    /// Percent of all cores busy between `earlier` and `self`.
    func busyPercent(since earlier: MachineLoad) -> Double {
        let total = Double(totalTicks &- earlier.totalTicks)
        return total > 0 ? Double(busyTicks &- earlier.busyTicks) / total * 100 : 0
    }
}
