import Foundation

/// Prints publish results as a fixed-width table: our CPU and RSS per stream beside aiortc's
/// from the same run, their ratio, how busy the machine was, and whether the recorder received
/// every publisher; then where our processes spent their time, and the goal, if any.
struct PublishTable {
    /// Machine busy percent from which a row is marked saturated.
    static let saturated = 95.0

    var results: [PublishResult] = []
    /// The issue's goal in percent of one core per stream (nil: none stated).
    var goalCPU: Double?
    var goalName = ""
    var cores = ProcessInfo.processInfo.activeProcessorCount

    func render() -> String {
        guard let first = results.first else { return "(no results)" }
        let ours = first.ours, anchor = first.anchor
        let header = [
            "kind", "N", "\(ours) %core", "/stream", "RSS MB", "/stream", "\(anchor) %core", "/stream", "RSS MB", "/stream",
            "CPU ratio", "RSS ratio", "rec %core", "busy %", "other %", "received \(ours) | \(anchor)",
        ]
        var rows = [header]
        for result in results {
            let n = Double(result.streams)
            let mine = result.oursFigures, theirs = result.anchorFigures
            rows.append([
                result.kind, String(result.streams), f(mine.cpuPercent, 2), f(mine.cpuPercent / n, 3), f(mine.rssMiB, 1),
                f(mine.rssMiB / n, 1), f(theirs.cpuPercent, 1), f(theirs.cpuPercent / n, 1), f(theirs.rssMiB, 0),
                f(theirs.rssMiB / n, 0), ratio(mine.cpuPercent, theirs.cpuPercent), ratio(mine.rssMiB, theirs.rssMiB),
                f(result.recorderFigures.cpuPercent, 1), busy(result.measurement.machineBusy), f(otherBusy(result), 0),
                received(result.reception.side(ours)) + " | " + received(result.reception.side(anchor)),
            ])
        }
        var lines = TextTable.lines(rows)
        lines += legend(ours: ours, anchor: anchor)
        lines.append("")
        for result in results {
            let threads = result.measurement.threads.prefix(6).map { "\($0.name) \(f($0.percent, 2))" }.joined(separator: ", ")
            lines.append("  \(ours) threads, \(result.kind) N=\(result.streams) (%core, all processes): \(threads)")
            if let note = result.oursNote { lines.append("    \(note)") }
        }
        lines += goalLines()
        return lines.joined(separator: "\n")
    }

    private func received(_ side: PublishReception.Side) -> String {
        var text = "\(side.isComplete ? "ok" : "BAD") \(side.listed)/\(side.received)/\(side.publishers)"
        if let fps = side.minVideoFPS { text += " v\(f(fps, 1))" }
        if let packets = side.minAudioPacketsPerSecond { text += " a\(f(packets, 1))" }
        if let kbps = side.meanKbps { text += " \(f(kbps, 0))k" }
        return text
    }

    private func legend(ours: String, anchor: String) -> [String] {
        [
            "",
            "  %core: CPU time (utime+stime of every thread, /proc/<pid>/stat, 10 ms ticks) over the window, percent of ONE core,",
            "  summed over the side's processes; /stream divides by N. RSS MB: largest sum of VmRSS sampled every 0.5 s.",
            "  ratio = \(ours) / \(anchor) (lower is better for \(ours)). rec %core: the one `agentd record` subscribed to all 2N.",
            "  busy %: all cores busy over the window (everything on the machine), * = saturated (>= \(Int(Self.saturated)) %);",
            "  other %: busy % less the benchmark's own processes (\(ours), \(anchor), recorder): Janus and other users' work.",
            "  received: listed/recorded/N = Janus listparticipants shows it publishing / the recorder's WebM of it has frames",
            "  of each kind sent; v = lowest recorded video frames/s, a = lowest recorded audio packets/s (Opus: 50 = 20 ms),",
            "  k = mean kb/s of the recordings. Rates are frames over the whole WebM: pass-through video starts at the file's next",
            "  keyframe after the recorder joins (a file cannot answer a PLI), so its v reads up to ~2 s of 25 s low.",
            "  Thread names are Linux comm names (15 chars); oot.default-qos is the Swift concurrency pool and threads it started",
            "  (an unnamed thread inherits its creator's name), which includes agentd's transport loop.",
        ]
    }

    private func goalLines() -> [String] {
        guard let goalCPU else { return [] }
        var lines = [""]
        for kind in results.map(\.kind).uniqued() {
            guard let largest = results.filter({ $0.kind == kind }).max(by: { $0.streams < $1.streams }) else { continue }
            let perStream = largest.oursFigures.cpuPercent / Double(largest.streams)
            lines.append(
                "goal (\(goalName)): <= \(f(goalCPU, 1)) %core per stream. \(kind) at N=\(largest.streams): "
                    + "\(f(perStream, 3)) %core/stream (\(perStream <= goalCPU ? "met" : "NOT met"))")
        }
        return lines
    }

    /// Percent of all cores busy with anything but the run's own processes.
    private func otherBusy(_ result: PublishResult) -> Double {
        let own = result.oursFigures.cpuPercent + result.anchorFigures.cpuPercent + result.recorderFigures.cpuPercent
        return max(0, result.measurement.machineBusy - own / Double(max(1, cores)))
    }

    private func busy(_ value: Double) -> String { f(value, 0) + (value >= Self.saturated ? "*" : "") }
    private func f(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }
    private func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.3f", a / b) : "-" }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
