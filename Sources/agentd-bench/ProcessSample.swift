import Foundation

/// One reading of a process's CPU time and memory from procfs (proc(5)).
///
/// CPU time is `utime + stime` from `/proc/<pid>/stat` (fields 14 and 15, in clock ticks; they
/// count every thread of the process). Memory is `VmRSS` (resident now) and `VmHWM` (resident
/// peak) from `/proc/<pid>/status`, in kB.
struct ProcessSample: Sendable {
    let cpuTicks: UInt64
    let rssKiB: UInt64
    let peakRSSKiB: UInt64

    /// Clock ticks per second, the unit of `cpuTicks` (sysconf(_SC_CLK_TCK), 100 on Linux).
    static let ticksPerSecond: Double = {
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return ticks > 0 ? Double(ticks) : 100
    }()

    /// Reads `pid`; nil when the process is gone or procfs says something unexpected.
    static func read(pid: Int32) -> ProcessSample? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let ticks = cpuTicks(statLine: stat)
        else { return nil }
        return ProcessSample(
            cpuTicks: ticks, rssKiB: kibField("VmRSS:", in: status) ?? 0, peakRSSKiB: kibField("VmHWM:", in: status) ?? 0)
    }

    /// `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields are counted
    /// after the last ')'. There, index 0 is field 3 (state), so utime (14) is index 11 and
    /// stime (15) index 12.
    static func cpuTicks(statLine: String) -> UInt64? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return user + system
    }

    /// The number on a `Name:   1234 kB` line of /proc/<pid>/status.
    static func kibField(_ name: String, in status: String) -> UInt64? {
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let parts = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return parts.first.flatMap { UInt64($0) }
        }
        return nil
    }
}
