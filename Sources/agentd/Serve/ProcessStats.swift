import Foundation

/// The daemon's own CPU time and resident memory, read from /proc/self (Linux).
struct ProcessStats: Sendable, Equatable {
    var cpuSeconds: Double
    var residentBytes: Int64

    /// Nil when /proc cannot be read or parsed.
    static func current() -> ProcessStats? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        else { return nil }
        return parse(stat: stat, statm: statm, ticksPerSecond: Int(sysconf(Int32(_SC_CLK_TCK))), pageSize: Int(sysconf(Int32(_SC_PAGESIZE))))
    }

    /// `stat`: after the command name in parentheses, field 3 is the state; utime and stime are
    /// fields 14 and 15 (proc(5)). `statm`: the second field is resident pages.
    static func parse(stat: String, statm: String, ticksPerSecond: Int, pageSize: Int) -> ProcessStats? {
        guard let close = stat.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field n is fields[n - 3].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let pages = statm.split(separator: " ")
        guard pages.count > 1, let resident = Int64(pages[1]) else { return nil }
        return ProcessStats(cpuSeconds: (user + system) / Double(ticksPerSecond), residentBytes: resident * Int64(pageSize))
    }
}
