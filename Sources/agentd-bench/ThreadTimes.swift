import Foundation

/// CPU ticks per thread name of one process, from /proc/<pid>/task/<tid>/stat, to show where a
/// process spends its time (transport loop, SCTP timer, writer). Threads of the same name are
/// summed; a thread that exits during the window takes its ticks with it.
struct ThreadTimes: Sendable {
    let ticksByName: [String: UInt64]

    static func read(pid: Int32) -> ThreadTimes { read(pids: [pid]) }

    /// The threads of several processes (for example N `agentd play`), summed by name.
    static func read(pids: [Int32]) -> ThreadTimes {
        var ticks: [String: UInt64] = [:]
        for pid in pids {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for tid in tasks {
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                    let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), open < close,
                    let used = ProcessSample.cpuTicks(statLine: stat)
                else { continue }
                let name = String(stat[stat.index(after: open)..<close])
                ticks[name, default: 0] += used
            }
        }
        return ThreadTimes(ticksByName: ticks)
    }

    /// Percent of one core per thread name between `earlier` and `self`, busiest first.
    func percents(since earlier: ThreadTimes, seconds: Double) -> [(name: String, percent: Double)] {
        ticksByName.map { name, ticks in
            (name, Double(ticks &- min(ticks, earlier.ticksByName[name] ?? 0)) / ProcessSample.ticksPerSecond / seconds * 100)
        }
        .filter { $0.percent > 0 }
        .sorted { $0.percent > $1.percent }
    }
}
